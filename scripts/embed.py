#!/usr/bin/env python3
"""embed.py SYMBOL INPUT OUTPUT - write a C file defining
`const char SYMBOL[]` with the bytes of INPUT (used to compile
presets/default.ini into the binary)."""
import sys

sym, src, dst = sys.argv[1:4]
data = open(src, 'rb').read()
with open(dst, 'w') as f:
    f.write('/* generated from %s by scripts/embed.py; do not edit */\n' % src)
    f.write('const char %s[] = {\n' % sym)
    for i in range(0, len(data), 16):
        f.write('\t' + ' '.join('0x%02x,' % b for b in data[i:i + 16]) + '\n')
    f.write('\t0x00\n};\n')

#!/usr/bin/env bash
# sweep_ssh_test.sh RXSCALE - the multi-host path of a sweep, for real: the
# commands `rxscale run --sweep ... --emit parallel` prints run under GNU
# parallel --sshlogin over ssh to this machine (an sshd of the test's own
# on a spare loopback port, a key made for it), each point writing its
# JSON; `rxscale sweep-merge` must then print the table the same sweep
# prints in one process, and sshd must have seen the logins.  Everything
# (keys, sshd, files) lives in a temporary directory removed at the end.
# Skips (exit 77) with the reason only where sshd cannot run here.
set -u
rxscale=$(readlink -f "$1")
skip() { echo "sweep-ssh: SKIP: $*"; exit 77; }
fail() { echo "sweep-ssh: FAIL: $*"; [ -f "$T/sshd.log" ] && sed 's/^/  sshd: /' "$T/sshd.log" | tail -20; exit 1; }

command -v parallel >/dev/null || skip "GNU parallel is not installed (scripts/deps.sh test installs it)"
command -v ssh >/dev/null || skip "ssh is not installed (openssh-client)"
sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] || skip "sshd is not installed (openssh-server; scripts/deps.sh test installs it)"

T=$(mktemp -d /tmp/rxscale-sweep-ssh.XXXXXX)
pid=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

ssh-keygen -q -t ed25519 -N '' -f "$T/host_key" || fail "ssh-keygen (host key)"
ssh-keygen -q -t ed25519 -N '' -f "$T/id" || fail "ssh-keygen (user key)"
cp "$T/id.pub" "$T/authorized_keys"
chmod 700 "$T"
chmod 600 "$T/authorized_keys"
# a spare port: the kernel picks one, we hand it to sshd
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
user=$(id -un)
cat >"$T/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $T/host_key
PidFile $T/sshd.pid
AuthorizedKeysFile $T/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
AllowUsers $user
EOF
# privilege separation needs its empty directory (Debian: /run/sshd)
[ -d /run/sshd ] || mkdir -p /run/sshd 2>/dev/null
"$sshd" -t -f "$T/sshd_config" 2>"$T/sshd.log" || skip "sshd refuses to run here: $(tail -1 "$T/sshd.log")"
"$sshd" -D -e -f "$T/sshd_config" 2>"$T/sshd.log" &
pid=$!
cat >"$T/ssh_config" <<EOF
Host rxscale-test
	HostName 127.0.0.1
	Port $port
	User $user
	IdentityFile $T/id
	IdentitiesOnly yes
	BatchMode yes
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	LogLevel ERROR
EOF
up=""
for _ in $(seq 50); do
	if ssh -F "$T/ssh_config" rxscale-test true 2>/dev/null; then up=1; break; fi
	kill -0 "$pid" 2>/dev/null || skip "sshd exited: $(tail -1 "$T/sshd.log")"
	sleep 0.1
done
[ -n "$up" ] || fail "no ssh login to 127.0.0.1:$port"

cd "$T" || fail "cd $T"
sweep=(run --set nic.chip=RTL8159 --set host.cpus=6 --set iperf3.reverse=1
       --set iperf3.streams=1 --set run.duration=0.2 --sweep usb.rx_usecs=0,15,150,500)
"$rxscale" "${sweep[@]}" >want.txt || fail "the in-process sweep"
"$rxscale" "${sweep[@]}" --emit parallel --emit-dir pts >cmds.txt || fail "--emit parallel"
logins_before=$(grep -c "Accepted publickey" "$T/sshd.log")
# two job slots on the "remote" host; the jobs' own stdout/stderr come back
parallel --will-cite --ssh "ssh -F $T/ssh_config" -S 2/rxscale-test --halt now,fail=1 \
	<cmds.txt >parallel.out 2>&1 || { cat parallel.out; fail "parallel --sshlogin"; }
logins=$(( $(grep -c "Accepted publickey" "$T/sshd.log") - logins_before ))
[ "$logins" -ge 4 ] || fail "sshd saw $logins logins for 4 points"
"$rxscale" sweep-merge pts >got.txt || fail "sweep-merge"
cmp -s want.txt got.txt || { diff want.txt got.txt; fail "merged table differs from the in-process sweep"; }
echo "sweep-ssh: 4 points over ssh to 127.0.0.1:$port ($logins logins), merged table identical"

# Thin wrapper around meson/ninja so a newcomer types one command.
BUILD ?= build
MESON_FLAGS ?= --buildtype=debugoptimized

.PHONY: all run test bench release clean deps kmod checkpatch libvfio-user uml-kernel uml-smoke uml-kmod uml-test uml-toeplitz qemu-guest qemu-igb qemu-test

all: $(BUILD)/build.ninja
	ninja -C $(BUILD)

$(BUILD)/build.ninja:
	scripts/deps.sh build
	meson setup $(BUILD) $(MESON_FLAGS)

# The main job on its built-in default: rxscale run (an RTL8127A with RSS on 4
# RX queues, iperf3 -P 20 from the peer for 10 simulated seconds).
run: all
	$(BUILD)/rxscale run

test:
	scripts/deps.sh test
	scripts/libvfio-user.sh $(BUILD)/libvfio-user >/dev/null
	@if [ -f $(BUILD)/build.ninja ]; then meson setup --reconfigure $(BUILD) >/dev/null; \
	 else meson setup $(BUILD) $(MESON_FLAGS); fi
	meson test -C $(BUILD) --print-errorlogs

# The fast rxscale for long runs and sweeps, $(BUILD)/release/rxscale: -O3
# tuned for this CPU, link-time and profile-guided optimisation trained on
# the main job (scripts/build-release.sh).  It prints the same bytes as
# $(BUILD)/rxscale.
release: all
	scripts/build-release.sh . $(BUILD)/release

# Speed figures, each comparison measured side by side in one call:
# Toeplitz ns/hash against DPDK, the event engine's events/s, and the main
# job (e1-rss) as real-time factor and instructions per simulated frame of
# the release build, beside rxscale built the same way at BENCH_BASE
# (default main; BENCH_BASE= for none).
BENCH_BASE ?= main
bench: all release
	scripts/deps.sh bench
	ninja -C $(BUILD) bench/bench-thash bench/bench-sim bench/bench-rt
	$(BUILD)/bench/bench-thash
	$(BUILD)/bench/bench-sim
	$(BUILD)/bench/bench-rt
	@for s in e1-rss e3-mit-on-p4 chaos-rtl8127a; do \
		$(BUILD)/rxscale run scenarios/$$s.ini --set run.duration=0.5 --json >$(BUILD)/bench-plain.json; \
		$(BUILD)/release/rxscale run scenarios/$$s.ini --set run.duration=0.5 --json >$(BUILD)/bench-release.json; \
		cmp -s $(BUILD)/bench-plain.json $(BUILD)/bench-release.json || \
			{ echo "release build: $$s RESULTS DIFFER from $(BUILD)/rxscale" >&2; exit 1; }; \
	done; echo "release build: e1-rss, e3-mit-on-p4, chaos-rtl8127a as $(BUILD)/rxscale prints them"
	@if [ -n "$(BENCH_BASE)" ]; then scripts/bench-base.sh "$(BENCH_BASE)" $(BUILD)/bench-base; fi
	python3 bench/bench_run.py $(BUILD)/release/rxscale scenarios/e1-rss.ini --scale 8,64,256 --layers $(BUILD)/rxscale \
		$$([ -n "$(BENCH_BASE)" ] && [ -x $(BUILD)/bench-base/rxscale ] && echo --base $(BUILD)/bench-base/rxscale)
	python3 bench/bench_sweep.py $(BUILD)/rxscale

# The drivers as Linux kernel modules (kmod/rxscale_r8169.ko,
# kmod/rxscale_r8152.ko) against the installed kernel headers.
kmod:
	scripts/deps.sh kmod
	$(MAKE) -C kmod

# libvfio-user (the vfio-user server library, for serving the model to QEMU's
# vfio-user-pci) from the copy in Debian trixie's qemu source package, built
# static into $(BUILD)/libvfio-user/prefix (cached: a re-run only prints the
# paths); the meson option vfio_user=auto picks it up on the next setup or
# make test. See docs/libvfio-user-api.md. Nothing else downloads it.
libvfio-user:
	scripts/libvfio-user.sh $(BUILD)/libvfio-user

# The kernel's checkpatch.pl --strict over src/drv, from Debian's
# linux-source-7.3 (fetched into $(BUILD)/checkpatch/, or the .deb make
# uml-kernel cached); each finding that stays is justified in
# scripts/checkpatch-allow.txt.
checkpatch:
	scripts/checkpatch.sh $(BUILD)/checkpatch

# A User-Mode Linux kernel with virt-pci and r8169, built from Debian's
# linux-source-7.3 (UML_KERNEL=6.12 for bookworm's 6.12) into $(BUILD)/uml/
# (cached: a re-run with the same source and uml/kernel.config does nothing),
# and a boot smoke test of it. See uml/README.md.
uml-kernel:
	scripts/uml-kernel.sh $(BUILD)/uml

uml-smoke: uml-kernel
	scripts/deps.sh uml
	scripts/uml-smoke.sh $(BUILD)/uml

# kmod/ built against that UML tree, then loaded and unloaded in a smoke boot.
uml-kmod: uml-kernel
	scripts/deps.sh uml
	scripts/uml-kmod.sh $(BUILD)/uml
	scripts/uml-smoke.sh --kmod $(BUILD)/uml/kmod-$(or $(UML_KERNEL),7.3) $(BUILD)/uml

# Real kernels on the model (issue 13): UML guests with mainline r8169 and
# with rxscale's module, served by 'rxscale uml'; ping, ethtool, iperf3,
# the OwnBit erratum; two time-travel runs compared byte for byte; the
# kernel's toeplitz.c RSS selftest against rxscale's driver.
uml-test: all uml-kmod
	scripts/deps.sh uml
	scripts/uml-test.sh $(BUILD)/uml
	UML_LINUX=$(BUILD)/uml/linux-$(or $(UML_KERNEL),7.3)/linux scripts/uml-determinism.sh $(BUILD)/uml-det
	scripts/uml-toeplitz.sh $(BUILD)/uml

# The kernel's own RSS selftest (tools/testing/selftests/drivers/net/hw/
# toeplitz.c from the same tree) in a UML guest against rxscale_r8169 with 4
# RX queues, a second guest sending the flows. See uml/README.md.
uml-toeplitz: all uml-kmod
	scripts/uml-toeplitz.sh $(BUILD)/uml

# SMP guests under QEMU (4 vCPUs, TCG), from Debian packages, no disk images:
# QEMU 11.1 (vfio-user client) in a private trixie root, Linux 7.3 image and
# modules, rxscale_r8169.ko built for it (gcc-14 in a trixie chroot), the
# static toeplitz selftest and a base initramfs, into $(BUILD)/qemu/ (cached).
# qemu-igb: QEMU's own igb spreads over 4 CPUs (the method's independent
# check); qemu-test: the whole QEMU suite with rxscale's own device served
# by rxscale vfio-user (libvfio-user built first; about 5 min here).
qemu-guest:
	scripts/deps.sh qemu
	scripts/qemu-guest.sh $(BUILD)/qemu

qemu-igb: qemu-guest
	QEMU_DIR=$(BUILD)/qemu scripts/qemu-igb.sh

qemu-test: qemu-guest libvfio-user
	scripts/deps.sh build
	@if [ -f $(BUILD)/build.ninja ]; then meson setup --reconfigure $(BUILD) >/dev/null; \
	 else meson setup $(BUILD) $(MESON_FLAGS); fi
	ninja -C $(BUILD)
	QEMU_DIR=$(BUILD)/qemu RXSCALE=$(BUILD)/rxscale scripts/qemu-test.sh

clean:
	rm -rf $(BUILD)
	$(MAKE) -C kmod clean

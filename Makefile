# Thin wrapper around meson/ninja so a newcomer types one command.
BUILD ?= build
MESON_FLAGS ?= --buildtype=debugoptimized

.PHONY: all run test bench clean deps kmod

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
	@if [ -f $(BUILD)/build.ninja ]; then meson setup --reconfigure $(BUILD) >/dev/null; \
	 else meson setup $(BUILD) $(MESON_FLAGS); fi
	meson test -C $(BUILD) --print-errorlogs

bench: all
	scripts/deps.sh test
	ninja -C $(BUILD) bench/bench-thash bench/bench-sim
	$(BUILD)/bench/bench-thash --json
	$(BUILD)/bench/bench-sim --json
	python3 bench/bench_run.py $(BUILD)/rxscale scenarios/e1-rss.ini --json

# The drivers as Linux kernel modules (kmod/rxscale_r8169.ko,
# kmod/rxscale_r8152.ko) against the installed kernel headers.
kmod:
	scripts/deps.sh kmod
	$(MAKE) -C kmod

clean:
	rm -rf $(BUILD)
	$(MAKE) -C kmod clean

# OpenPISA top-level Makefile: delegates to the folders, binaries land in build/bin/.
#   make          build everything (optimised, build/)
#   make test     install what is missing, build with ASan+UBSan (build/san), run every test
#   make demo     install what is missing, build, ping through the Verilog pipeline in Icarus
#   make bench    benchmarks; figures go to docs/performance.md by hand, see that file
#   make fuzz-rtl differential test of the RTL core against pisa-model, SEED=S N=packets
#   make deps     install Debian packages (as root) or print the apt-get line
#   make bitstream BOARD=NAME [TOP=MODULE] [CORE_MHZ=N] [SEED=N]  a board's bitstream (boards/Makefile)
#   make flash BOARD=NAME     write it to the board with pisactl flash
#   make synth-report [BOARDS="NAME..."]  each board's blocks through Yosys, into docs/performance.md
SUBDIRS := lib model stf p4lower host tests hw

all:
	@for d in $(SUBDIRS); do $(MAKE) --no-print-directory -C $$d all || exit 1; done

deps:
	@bash scripts/deps.sh

test: deps
	@$(MAKE) --no-print-directory SAN=1 all
	@bash scripts/run-tests.sh

demo: deps all
	@bash scripts/demo.sh

bench: all
	@bash scripts/bench.sh

fuzz-rtl: all
	@$(MAKE) --no-print-directory -C tests/rtl fuzz

bitstream: deps
	@$(MAKE) --no-print-directory -C boards bitstream

flash:
	@$(MAKE) --no-print-directory -C host all >/dev/null
	@$(MAKE) --no-print-directory -C boards flash

synth-report: deps
	@bash scripts/synth-report.sh $(BOARDS)

clean:
	rm -rf build

.PHONY: all deps test demo bench clean fuzz-rtl bitstream flash synth-report

# Shared build settings, included by every folder's Makefile.
# SAN=1 builds with AddressSanitizer and UBSan into build/san (what `make test` uses);
# the default is an optimised build into build/ (what `make bench` and users run).
.DEFAULT_GOAL := all
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
SAN ?= 0
ifeq ($(SAN),1)
BUILD ?= $(TOP)/build/san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
OPT := -O1
else
BUILD ?= $(TOP)/build
SANFLAGS :=
OPT := -O2
endif
BIN := $(BUILD)/bin
OBJ := $(BUILD)/obj
LIBPISA := $(BUILD)/lib/libpisa.a

CC ?= cc
CFLAGS ?= $(OPT) -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -I$(TOP)/lib $(SANFLAGS)
LDFLAGS += $(SANFLAGS)

# Compile rule for any folder: objects land under build/obj/<folder>/.
$(OBJ)/%.o: $(TOP)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)

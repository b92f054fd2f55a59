/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_value.h: the value syntax of BMv2's simple_switch_CLI (parse_param in
 * runtime_CLI.py) for keys and action parameters, and a few number helpers
 * the control plane shares.
 *
 * Values are unsigned numbers of up to 128 bits held as 16-byte big-endian
 * strings (PISA_VALUE_BYTES), right-aligned.
 */
#ifndef PISA_VALUE_H
#define PISA_VALUE_H

#include <stddef.h>
#include <stdint.h>

#define PISA_VALUE_BYTES 16
#define PISA_VALUE_MAX_BITS 128

/*
 * Parses s as a value of a width-bit field (1..128):
 *  - width 32 and s contains '.': IPv4 dotted quad;
 *  - width 48 and s contains ':': MAC address (six hex bytes);
 *  - width 128 and s contains ':': IPv6 text;
 *  - otherwise Python int(s, 0): decimal, 0x.., 0o.., 0b.. (underscores between
 *    digits allowed, decimal with leading zeros rejected).
 * Returns 0, -PISA_E_INVAL (bad syntax) or -PISA_E_RANGE (negative, or does
 * not fit in width bits); *why then says what is wrong in a few words.
 */
int pisa_value_parse(const char *s, unsigned width, uint8_t out[PISA_VALUE_BYTES],
		     const char **why);

/* Python int(s) in base 10 into a uint64_t no larger than max. 0 or -PISA_E_INVAL /
 * -PISA_E_RANGE. */
int pisa_value_parse_dec(const char *s, uint64_t max, uint64_t *v);

/* Python float(s) (finite only). 0 or -PISA_E_INVAL. */
int pisa_value_parse_float(const char *s, double *v);

/* Python's repr() of a float: shortest digits that read back the same,
 * "1.0", "0.5", "1e-05", "1e+16". */
void pisa_value_fmt_float(double v, char *buf, size_t len);

/* Width-bit value at bit offset bitoff of buf (bit 0 = MSB of buf[0]). */
void pisa_value_put(uint8_t *buf, size_t bitoff, unsigned width,
		    const uint8_t v[PISA_VALUE_BYTES]);
void pisa_value_get(const uint8_t *buf, size_t bitoff, unsigned width,
		    uint8_t v[PISA_VALUE_BYTES]);

/* The top n bits of a width-bit value set (an lpm mask). */
void pisa_value_prefix_mask(unsigned width, unsigned n, uint8_t m[PISA_VALUE_BYTES]);

/* v fits in width bits */
int pisa_value_fits(const uint8_t v[PISA_VALUE_BYTES], unsigned width);

#endif

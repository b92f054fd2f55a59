/* SPDX-License-Identifier: Apache-2.0 */
/*
 * flash_cases.c: host/flash.c against the simulated board of flashsim.c.
 * Prints one "PASS flash/NAME" or "FAIL flash/NAME: why" line per case;
 * exits 1 if any failed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flash.h"
#include "flashsim.h"

static int fails;

static void pass(const char *name)
{
	printf("PASS flash/%s\n", name);
}

static int failf(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL flash/%s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fails++;
	return -1;
}

/* An image that looks like an iCE40 bitstream: a header, the sync word, noise, blank pages. */
static uint8_t *make_image(size_t len, unsigned seed, int sync)
{
	uint8_t *d = malloc(len ? len : 1);
	size_t i;
	uint32_t x = seed * 2654435761u + 1;

	if (!d)
		abort();
	for (i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		d[i] = (uint8_t)(x >> 16);
	}
	/* a few pages of 0xff, which need no programming */
	for (i = 3 * FLASH_PAGE; i < 5 * FLASH_PAGE && i < len; i++)
		d[i] = 0xff;
	if (len >= 8) {
		static const uint8_t hdr[8] = { 0xff, 0x00, 0x00, 0xff, 0x7e, 0xaa, 0x99, 0x7e };

		memcpy(d, hdr, 8);
		if (!sync)
			d[5] = 0x55;
	}
	return d;
}

struct prog {
	char step[16];
	size_t last, total;
	int steps, bad;
};

static void on_progress(void *arg, const char *step, size_t done, size_t total)
{
	struct prog *p = arg;

	if (strcmp(p->step, step)) {
		snprintf(p->step, sizeof(p->step), "%s", step);
		p->steps++;
		if (done != 0)
			p->bad = 1;
		p->last = 0;
	}
	if (done < p->last || done > total)
		p->bad = 1;
	p->last = done;
	p->total = total;
}

static size_t pages_to_program(const uint8_t *d, size_t len)
{
	size_t off, i, n = 0;

	for (off = 0; off < len; off += FLASH_PAGE) {
		for (i = off; i < len && i < off + FLASH_PAGE; i++)
			if (d[i] != 0xff)
				break;
		if (i < len && i < off + FLASH_PAGE)
			n++;
	}
	return n;
}

/* A good image: read back equal, only the needed blocks erased, FPGA configured. */
static void good_image(const char *name, uint32_t size, uint8_t i0, uint8_t i1, uint8_t i2,
		       size_t len, int asleep)
{
	struct fsim s;
	struct mpsse_io io;
	struct flash_report rep;
	struct flash_opts o = { 0 };
	struct prog pr = { "", 0, 0, 0, 0 };
	char err[256];
	uint8_t *img = make_image(len, (unsigned)len, 1);
	uint32_t blocks = (uint32_t)((len + FLASH_BLOCK - 1) / FLASH_BLOCK), b;
	enum flash_result r;
	size_t i;

	if (fsim_init(&s, size, i0, i1, i2, 0x5a) < 0)
		abort();
	s.powered_down = asleep;
	io = fsim_io(&s);
	o.progress = on_progress;
	o.progress_arg = &pr;
	r = flash_write(&io, img, len, &o, &rep, err, sizeof(err));
	if (r != FLASH_OK) {
		failf(name, "result %d: %s", r, err);
		goto out;
	}
	if (s.errors) {
		failf(name, "%u protocol violations, first: %s", s.errors, s.error);
		goto out;
	}
	for (i = 0; i < len; i++) {
		if (fsim_peek(&s, (uint32_t)i) != img[i]) {
			failf(name, "flash differs at 0x%06zx: 0x%02x, image 0x%02x", i,
			      fsim_peek(&s, (uint32_t)i), img[i]);
			goto out;
		}
	}
	for (b = 0; b < 256 && b < size / FLASH_BLOCK; b++) {
		unsigned want = b < blocks ? 1 : 0;

		if (s.block_erases[b] != want) {
			failf(name, "block %u erased %u times, want %u", b, s.block_erases[b], want);
			goto out;
		}
	}
	/* beyond the blocks it needed, the old contents are untouched */
	if ((size_t)blocks * FLASH_BLOCK < size && fsim_peek(&s, blocks * FLASH_BLOCK) != 0x5a) {
		failf(name, "flash beyond the image's blocks changed");
		goto out;
	}
	/* the tail of the last block (after the image) is erased, not old data */
	if (len < (size_t)blocks * FLASH_BLOCK && fsim_peek(&s, (uint32_t)len) != 0xff) {
		failf(name, "tail of the last block not erased");
		goto out;
	}
	if (rep.pages_programmed != pages_to_program(img, len) ||
	    s.pages_programmed != rep.pages_programmed) {
		failf(name, "%u pages programmed (flash saw %u), want %zu", rep.pages_programmed,
		      s.pages_programmed, pages_to_program(img, len));
		goto out;
	}
	if (rep.blocks_erased != blocks || s.erases_total != blocks) {
		failf(name, "%u blocks erased, want %u", rep.blocks_erased, blocks);
		goto out;
	}
	if (rep.cdone != 1 || !fsim_cdone(&s) || s.reconfigs != 1) {
		failf(name, "CDONE %d (pin %d), %u reconfigurations", rep.cdone, fsim_cdone(&s),
		      s.reconfigs);
		goto out;
	}
	if (memcmp(rep.chip.id, (uint8_t[]){ i0, i1, i2 }, 3) || rep.chip.size != size) {
		failf(name, "chip %s, %u bytes", rep.chip.name, rep.chip.size);
		goto out;
	}
	if (s.sck_hz != 6000000u || s.bad_opcodes != 1) {
		failf(name, "SCK %u Hz, %u bad opcodes (want 6 MHz, 1 from the sync check)",
		      s.sck_hz, s.bad_opcodes);
		goto out;
	}
	if (pr.bad || pr.steps != 3 || strcmp(pr.step, "verify") || pr.last != len) {
		failf(name, "progress: %d steps, last %s %zu/%zu%s", pr.steps, pr.step, pr.last,
		      pr.total, pr.bad ? ", not monotonic" : "");
		goto out;
	}
	pass(name);
out:
	free(img);
	fsim_free(&s);
}

/* Runs flash_write on a prepared sim; returns the result. */
static enum flash_result run(struct fsim *s, const uint8_t *img, size_t len,
			     struct flash_report *rep, char *err, size_t errlen)
{
	struct mpsse_io io = fsim_io(s);

	return flash_write(&io, img, len, NULL, rep, err, errlen);
}

static int expect(const char *name, enum flash_result r, enum flash_result want, const char *err,
		  const char *needle)
{
	if (r != want)
		return failf(name, "result %d, want %d (%s)", r, want, err);
	if (needle && !strstr(err, needle))
		return failf(name, "error '%s' does not say '%s'", err, needle);
	return 0;
}

/* The board is handed back to the FPGA even after a failure. */
static int released(const char *name, const struct fsim *s)
{
	if (!s->creset_level || (s->dir & (FLASH_PIN_SCK | FLASH_PIN_MOSI | FLASH_PIN_CS)))
		return failf(name, "left the FPGA in reset or the bus driven (dir 0x%02x)", s->dir);
	return 0;
}

static void stuck_bit(void)
{
	const char *name = "stuck_bit_verify_fails_with_address";
	struct fsim s;
	struct flash_report rep;
	char err[256];
	size_t len = 100000;
	uint8_t *img = make_image(len, 7, 1);
	enum flash_result r;

	img[0x0123ab] = 0x5a;	/* bit 3 set: the stuck-at-0 bit cannot hold it */
	fsim_init(&s, 4u << 20, 0x20, 0xBA, 0x16, 0xff);
	s.stuck_addr = 0x0123ab;
	s.stuck_mask = 0x08;
	s.stuck_val = 0;
	r = run(&s, img, len, &rep, err, sizeof(err));
	if (!expect(name, r, FLASH_ERR_VERIFY, err, "0x0123ab") &&
	    !expect(name, r, FLASH_ERR_VERIFY, err, "verify") && !released(name, &s)) {
		if (rep.bad_addr != 0x0123ab || rep.bad_bytes != 1 || rep.bad_want != 0x5a ||
		    rep.bad_got != 0x52)
			failf(name, "report: %u bad, first 0x%06x wrote %02x read %02x", rep.bad_bytes,
			      rep.bad_addr, rep.bad_want, rep.bad_got);
		else
			pass(name);
	}
	free(img);
	fsim_free(&s);
}

static void bad_id(const char *name, uint8_t i0, uint8_t i1, uint8_t i2, const char *needle)
{
	struct fsim s;
	struct flash_report rep;
	char err[256];
	uint8_t *img = make_image(5000, 3, 1);
	enum flash_result r;

	fsim_init(&s, 1u << 20, i0, i1, i2, 0x5a);
	r = run(&s, img, 5000, &rep, err, sizeof(err));
	if (!expect(name, r, FLASH_ERR_ID, err, needle) && !released(name, &s)) {
		if (s.erases_total || s.pages_programmed || s.wel_sets)
			failf(name, "wrote to an unknown flash (%u erases, %u pages)", s.erases_total,
			      s.pages_programmed);
		else if (s.errors)
			failf(name, "protocol: %s", s.error);
		else
			pass(name);
	}
	free(img);
	fsim_free(&s);
}

static void stays_busy(const char *name, int from_start, const char *needle)
{
	struct fsim s;
	struct flash_report rep;
	char err[256];
	uint8_t *img = make_image(70000, 5, 1);
	enum flash_result r;
	clock_t t0 = clock();
	double secs;

	fsim_init(&s, 16u << 20, 0xEF, 0x40, 0x18, 0xff);
	s.busy_from_start = from_start;
	s.busy_after_erase = !from_start;
	r = run(&s, img, 70000, &rep, err, sizeof(err));
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	if (!expect(name, r, FLASH_ERR_TIMEOUT, err, needle) &&
	    !expect(name, r, FLASH_ERR_TIMEOUT, err, "still busy") && !released(name, &s)) {
		if (s.now_ns > 30000000000ull || secs > 10)
			failf(name, "gave up only after %.1f s simulated, %.1f s real",
			      (double)s.now_ns / 1e9, secs);
		else if (s.erases_total != (from_start ? 0u : 1u) || s.pages_programmed)
			failf(name, "%u erases, %u pages after the timeout", s.erases_total,
			      s.pages_programmed);
		else
			pass(name);
	}
	free(img);
	fsim_free(&s);
}

static void too_large(void)
{
	const char *name = "file_larger_than_flash";
	struct fsim s;
	struct flash_report rep;
	char err[256];
	size_t len = (1u << 20) + 1;
	uint8_t *img = make_image(len, 9, 1);
	enum flash_result r;

	fsim_init(&s, 1u << 20, 0xEF, 0x40, 0x14, 0x5a);
	r = run(&s, img, len, &rep, err, sizeof(err));
	if (!expect(name, r, FLASH_ERR_FILE, err, "larger than the 1048576-byte flash") &&
	    !released(name, &s)) {
		if (s.erases_total || s.wel_sets || fsim_peek(&s, 0) != 0x5a)
			failf(name, "flash touched (%u erases)", s.erases_total);
		else
			pass(name);
	}
	free(img);
	fsim_free(&s);
}

static void exact_fit(void)
{
	good_image("image_fills_the_flash_exactly", 1u << 20, 0xEF, 0x40, 0x14, 1u << 20, 0);
}

static void empty_file(void)
{
	const char *name = "empty_file";
	struct fsim s;
	struct flash_report rep;
	char err[256];
	uint8_t one = 0;
	enum flash_result r;

	fsim_init(&s, 1u << 20, 0xEF, 0x40, 0x14, 0x5a);
	r = run(&s, &one, 0, &rep, err, sizeof(err));
	if (!expect(name, r, FLASH_ERR_FILE, err, "empty")) {
		if (s.now_ns || s.bad_opcodes || s.dir)
			failf(name, "the board was touched for an empty file");
		else
			pass(name);
	}
	fsim_free(&s);
}

static void write_protected(void)
{
	const char *name = "write_protected_flash";
	struct fsim s;
	struct flash_report rep;
	char err[256];
	uint8_t *img = make_image(3000, 11, 1);
	enum flash_result r;

	fsim_init(&s, 4u << 20, 0xC2, 0x20, 0x16, 0x5a);
	s.write_protect = 1;
	r = run(&s, img, 3000, &rep, err, sizeof(err));
	if (!expect(name, r, FLASH_ERR_PROTECTED, err, "write enable at address 0x000000") &&
	    !released(name, &s))
		pass(name);
	free(img);
	fsim_free(&s);
}

static void no_cdone(void)
{
	const char *name = "no_sync_word_cdone_low";
	struct fsim s;
	struct flash_report rep;
	char err[256];
	uint8_t *img = make_image(20000, 13, 0);
	enum flash_result r;

	fsim_init(&s, 4u << 20, 0x20, 0xBA, 0x16, 0xff);
	r = run(&s, img, 20000, &rep, err, sizeof(err));
	if (!expect(name, r, FLASH_ERR_CDONE, err, "CDONE stayed low")) {
		if (rep.cdone != 0 || rep.bad_bytes || s.errors)
			failf(name, "cdone %d, %u bad bytes, %u violations", rep.cdone, rep.bad_bytes,
			      s.errors);
		else
			pass(name);
	}
	free(img);
	fsim_free(&s);
}

static int dead_write(void *ctx, const uint8_t *p, size_t n)
{
	(void)ctx, (void)p, (void)n;
	return 0;
}

static int dead_read(void *ctx, uint8_t *p, size_t n)
{
	(void)ctx, (void)p, (void)n;
	return -1;
}

static void silent_engine(void)
{
	const char *name = "ft2232h_does_not_answer";
	struct mpsse_io io = { NULL, dead_write, dead_read, NULL, NULL };
	char err[256];
	uint8_t img[16] = { 1 };
	enum flash_result r = flash_write(&io, img, sizeof(img), NULL, NULL, err, sizeof(err));

	if (!expect(name, r, FLASH_ERR_IO, err, "setup: the FT2232H did not answer"))
		pass(name);
}

static uint8_t last_low_val = 0xee;

static int zero_write(void *ctx, const uint8_t *p, size_t n)
{
	(void)ctx;
	if (n == 3 && p[0] == MPSSE_SET_LOW)
		last_low_val = p[1];
	return 0;
}

static int zero_read(void *ctx, uint8_t *p, size_t n)
{
	(void)ctx;
	memset(p, 0, n);
	return 0;
}

/* Channel A not in MPSSE mode: the bad-opcode echo is wrong; CRESET_B let go. */
static void not_mpsse(void)
{
	const char *name = "mpsse_echo_wrong_releases_creset";
	struct mpsse_io io = { NULL, zero_write, zero_read, NULL, NULL };
	char err[256];
	uint8_t img[16] = { 1 };
	enum flash_result r = flash_write(&io, img, sizeof(img), NULL, NULL, err, sizeof(err));

	if (!expect(name, r, FLASH_ERR_IO, err, "answered 00 00, not fa aa")) {
		if (last_low_val != FLASH_PIN_CRESET)
			failf(name, "CRESET_B not released (last GPIO value 0x%02x)", last_low_val);
		else
			pass(name);
	}
}

static void identify_table(void)
{
	const char *name = "jedec_id_table";
	struct flash_chip c;

	if (flash_identify((const uint8_t[]){ 0xEF, 0x40, 0x18 }, &c) || c.size != 16u << 20)
		failf(name, "W25Q128 not known");
	else if (flash_identify((const uint8_t[]){ 0x20, 0xBA, 0x16 }, &c) || c.size != 4u << 20)
		failf(name, "N25Q032 not known");
	else if (flash_identify((const uint8_t[]){ 0xEF, 0x60, 0x15 }, &c) || c.size != 2u << 20)
		failf(name, "a generic Winbond 2 MiB part not accepted");
	else if (flash_identify((const uint8_t[]){ 0xEF, 0x40, 0x19 }, &c) ||
		 c.size != FLASH_MAX_SIZE)
		failf(name, "a 32 MiB part is not limited to 16 MiB (3-byte addresses)");
	else if (!flash_identify((const uint8_t[]){ 0x12, 0x34, 0x56 }, &c) ||
		 !flash_identify((const uint8_t[]){ 0xEF, 0x40, 0x05 }, &c))
		failf(name, "an unknown id accepted");
	else
		pass(name);
}

/* ---- the model itself ---- */

static void model_page_wrap(void)
{
	const char *name = "model_page_program_wraps_in_page";
	struct fsim s;
	struct mpsse_io io;
	uint8_t cmd[600];
	size_t k = 0, i;
	int ok = 1;

	fsim_init(&s, 1u << 20, 0xEF, 0x40, 0x14, 0xff);
	io = fsim_io(&s);
	cmd[k++] = MPSSE_DIV5_OFF;
	cmd[k++] = MPSSE_SET_LOW; cmd[k++] = 0; cmd[k++] = FLASH_PIN_CRESET;
	cmd[k++] = MPSSE_SET_LOW; cmd[k++] = 0; cmd[k++] = 0x93;	/* CS low */
	cmd[k++] = MPSSE_OUT_NEG_MSB; cmd[k++] = 0; cmd[k++] = 0; cmd[k++] = SPI_WRITE_ENABLE;
	cmd[k++] = MPSSE_SET_LOW; cmd[k++] = FLASH_PIN_CS; cmd[k++] = 0x93;
	cmd[k++] = MPSSE_SET_LOW; cmd[k++] = 0; cmd[k++] = 0x93;
	cmd[k++] = MPSSE_OUT_NEG_MSB; cmd[k++] = 3; cmd[k++] = 1;	/* 4 + 256 bytes */
	cmd[k++] = SPI_PAGE_PROGRAM; cmd[k++] = 0x00; cmd[k++] = 0x01; cmd[k++] = 0xf0;
	for (i = 0; i < 256; i++)
		cmd[k++] = (uint8_t)i;
	cmd[k++] = MPSSE_SET_LOW; cmd[k++] = FLASH_PIN_CS; cmd[k++] = 0x93;
	/* split the stream at an odd place: the engine must reassemble commands */
	io.write(io.ctx, cmd, 21);
	io.write(io.ctx, cmd + 21, k - 21);
	for (i = 0; i < 256; i++) {
		uint32_t a = 0x100 + (uint32_t)((0xf0 + i) & 0xff);

		if (fsim_peek(&s, a) != (uint8_t)i)
			ok = 0;
	}
	if (!ok || s.pages_programmed != 1 || fsim_peek(&s, 0x200) != 0xff || s.errors)
		failf(name, "byte 0x100 = %02x, 0x1f0 = %02x, %u pages, %s", fsim_peek(&s, 0x100),
		      fsim_peek(&s, 0x1f0), s.pages_programmed, s.errors ? s.error : "");
	else
		pass(name);
	fsim_free(&s);
}

static void model_catches_wrong_edge(void)
{
	const char *name = "model_flags_wrong_clock_edge_and_bus_contention";
	struct fsim s;
	struct mpsse_io io;
	const uint8_t edge[] = { MPSSE_SET_LOW, 0, FLASH_PIN_CRESET, MPSSE_SET_LOW, 0, 0x93,
				 0x10, 0, 0, SPI_WRITE_ENABLE };
	const uint8_t fight[] = { MPSSE_SET_LOW, FLASH_PIN_CRESET | FLASH_PIN_CS, 0x93 };
	unsigned e1;

	fsim_init(&s, 1u << 20, 0xEF, 0x40, 0x14, 0xff);
	io = fsim_io(&s);
	io.write(io.ctx, edge, sizeof(edge));
	e1 = s.errors;
	fsim_free(&s);
	fsim_init(&s, 1u << 20, 0xEF, 0x40, 0x14, 0xff);
	io = fsim_io(&s);
	io.write(io.ctx, fight, sizeof(fight));
	if (!e1 || !s.errors)
		failf(name, "wrong edge: %u violations, contention: %u", e1, s.errors);
	else
		pass(name);
	fsim_free(&s);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	model_page_wrap();
	model_catches_wrong_edge();
	identify_table();
	good_image("good_image_icebreaker_w25q128", 16u << 20, 0xEF, 0x40, 0x18, 104090, 1);
	good_image("good_image_hx8k_n25q032", 4u << 20, 0x20, 0xBA, 0x16, 135100, 0);
	good_image("good_image_one_page", 1u << 20, 0xC8, 0x40, 0x14, 100, 0);
	exact_fit();
	stuck_bit();
	bad_id("unknown_jedec_id", 0x12, 0x34, 0x56, "unknown flash, JEDEC id 12 34 56");
	bad_id("no_flash_answers", 0xff, 0xff, 0xff, "no flash answers");
	stays_busy("flash_stays_busy_after_erase_times_out", 0, "erase: flash still busy at address 0x000000");
	stays_busy("flash_busy_from_the_start_times_out", 1, "read id: flash still busy");
	too_large();
	empty_file();
	write_protected();
	no_cdone();
	silent_engine();
	not_mpsse();
	return fails ? 1 : 0;
}

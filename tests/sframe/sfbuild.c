// SPDX-License-Identifier: GPL-2.0
/* Build SFrame sections by hand for the tests. */
#include <string.h>

#include "sfbuild.h"

void sb_put16(unsigned char *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

void sb_put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (v >> (8 * i)) & 0xff;
}

void sb_put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (v >> (8 * i)) & 0xff;
}

static void put_n(unsigned char *p, uint32_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (v >> (8 * i)) & 0xff;
}

void sb_init(struct sb_section *s, int version, int flags, struct sb_fde *fdes)
{
	memset(s, 0, sizeof(*s));
	s->version = version;
	s->flags = SB_SORTED | flags;
	s->abi = 3;
	s->ra_fixed = -8;
	s->fdes = fdes;
}

struct sb_fde *sb_add_fde(struct sb_section *s, unsigned long func, uint32_t size, int fre_type)
{
	struct sb_fde *f = &s->fdes[s->nfdes++];

	memset(f, 0, sizeof(*f));
	f->func = func;
	f->size = size;
	f->fre_type = fre_type;
	return f;
}

static int fits(int64_t v, int bits)
{
	return v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1));
}

struct sb_fre *sb_add_fre(struct sb_fde *f, uint32_t start, int sp, int32_t cfa, int32_t fp)
{
	struct sb_fre *r = &f->fres[f->nfres++];

	memset(r, 0, sizeof(*r));
	r->start = start;
	r->base_sp = sp;
	r->count = fp ? 2 : 1;
	r->size_code = fits(cfa, 8) && fits(fp, 8) ? 0 : fits(cfa, 16) && fits(fp, 16) ? 1 : 2;
	r->off[0] = cfa;
	r->off[1] = fp;
	return r;
}

struct sb_fre *sb_add_words(struct sb_fde *f, uint32_t start, int size_code, int n,
			    const int32_t *w)
{
	struct sb_fre *r = &f->fres[f->nfres++];

	memset(r, 0, sizeof(*r));
	r->start = start;
	r->count = n;
	r->size_code = size_code;
	if (n)
		memcpy(r->off, w, n * sizeof(*w));
	return r;
}

static size_t start_size(int fre_type)
{
	return fre_type == 1 ? 2 : fre_type == 2 ? 4 : 1;
}

static size_t offset_size(int size_code)
{
	return size_code == 0 ? 1 : size_code == 1 ? 2 : 4;
}

static size_t fre_len(const struct sb_fde *f, const struct sb_fre *r)
{
	return start_size(f->fre_type) + 1 + (size_t)r->count * offset_size(r->size_code);
}

/* The FREs of @f at @out */
static size_t put_fres(const struct sb_fde *f, unsigned char *out)
{
	size_t pos = 0;

	for (int j = 0; j < f->nfres; j++) {
		const struct sb_fre *r = &f->fres[j];
		size_t ss = start_size(f->fre_type), os = offset_size(r->size_code);

		put_n(out + pos, r->start, ss);
		out[pos + ss] = (r->base_sp ? 1 : 0) | (r->count & 0xf) << 1 |
				(r->size_code & 3) << 5;
		for (int k = 0; k < r->count; k++)
			put_n(out + pos + ss + 1 + k * os, (uint32_t)r->off[k], os);
		pos += fre_len(f, r);
	}
	return pos;
}

struct sb_layout sb_build(const struct sb_section *s, unsigned long base,
			  unsigned char *out, size_t cap)
{
	struct sb_layout l = { 0 };
	size_t fre_bytes = 0, pos, fre_off = 0;
	uint32_t nfres = 0;
	int v3 = s->version == 3;

	l.hdr_end = SB_HDR_SIZE + (size_t)s->auxhdr_len;
	l.fde_size = s->version == 1 ? 17 : v3 ? 16 : 20;
	l.fdes = l.hdr_end;
	l.fres = l.fdes + (size_t)s->nfdes * l.fde_size;
	for (int i = 0; i < s->nfdes; i++) {
		for (int j = 0; j < s->fdes[i].nfres; j++)
			fre_bytes += fre_len(&s->fdes[i], &s->fdes[i].fres[j]);
		nfres += s->fdes[i].nfres;
		fre_bytes += v3 ? 5 : 0;
	}
	if (l.fres + fre_bytes > cap)
		return l;
	memset(out, 0, l.fres + fre_bytes);

	sb_put16(out, SB_MAGIC);
	out[2] = s->version;
	out[3] = s->flags;
	out[4] = s->abi;
	out[5] = (uint8_t)s->fp_fixed;
	out[6] = (uint8_t)s->ra_fixed;
	out[7] = s->auxhdr_len;
	sb_put32(out + 8, s->nfdes);
	sb_put32(out + 12, nfres);
	sb_put32(out + 16, fre_bytes);
	sb_put32(out + 20, 0);
	sb_put32(out + 24, l.fres - l.hdr_end);
	memset(out + SB_HDR_SIZE, 0xaa, s->auxhdr_len);

	pos = l.fres;
	for (int n = 0; n < s->nfdes; n++) {
		int i = v3 && s->reverse_blobs ? s->nfdes - 1 - n : n;
		const struct sb_fde *f = &s->fdes[i];
		unsigned char *p = out + l.fdes + (size_t)i * l.fde_size;
		unsigned long rel_to = base;
		size_t len;

		if (s->version != 1 && (s->flags & SB_PCREL))
			rel_to = base + l.fdes + (size_t)i * l.fde_size;
		if (v3) {
			sb_put64(p, (uint64_t)(f->func - rel_to));
			sb_put32(p + 8, f->size);
			sb_put32(p + 12, fre_off);
			if (i < 64)
				l.attr[i] = pos;
			sb_put16(out + pos, f->nfres);
			out[pos + 2] = (f->fre_type & 0xf) | (f->pcmask ? 0x10 : 0) |
				       (f->signal ? 0x80 : 0);
			out[pos + 3] = f->type;
			out[pos + 4] = f->rep_size;
			pos += 5;
			fre_off += 5;
		} else {
			sb_put32(p, (uint32_t)(f->func - rel_to));
			sb_put32(p + 4, f->size);
			sb_put32(p + 8, fre_off);
			sb_put32(p + 12, f->nfres);
			p[16] = (f->fre_type & 0xf) | (f->pcmask ? 0x10 : 0);
			if (s->version != 1)
				p[17] = f->rep_size;
		}
		len = put_fres(f, out + pos);
		pos += len;
		fre_off += len;
	}
	l.len = pos;
	return l;
}

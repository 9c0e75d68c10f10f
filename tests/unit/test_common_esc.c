/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* tool_esc(): the control bytes of data are escaped for a terminal (tools/common/esc.c). */
#include <string.h>

#include "common/esc.h"
#include "tap.h"

int main(void)
{
	char b[64];

	EXPECT_TRUE(!tool_needs_esc("mlx5_0 rcvd_pkts"));
	EXPECT_TRUE(!tool_needs_esc("caf\xc3\xa9 \xe2\x82\xac"));	/* UTF-8 letters stay */
	EXPECT_STREQ(tool_esc("plain", b, sizeof(b)), "plain");
	EXPECT_TRUE(tool_esc("plain", b, sizeof(b)) != b);		/* no copy when clean */
	EXPECT_STREQ(tool_esc("a\033[2Jb", b, sizeof(b)), "a\\033[2Jb");
	EXPECT_STREQ(tool_esc("x\ny\tz\r\\", b, sizeof(b)), "x\\ny\\tz\\r\\\\");
	EXPECT_STREQ(tool_esc("del\x7f", b, sizeof(b)), "del\\177");
	EXPECT_STREQ(tool_esc("bell\a", b, sizeof(b)), "bell\\007");
	/* C1 controls as UTF-8 (U+009B is CSI to an xterm): both bytes escaped */
	EXPECT_TRUE(tool_needs_esc("\xc2\x9b" "2J"));
	EXPECT_STREQ(tool_esc("\xc2\x9b" "2J", b, sizeof(b)), "\\302\\2332J");
	EXPECT_STREQ(tool_esc("\xc2\xa0", b, sizeof(b)), "\xc2\xa0");	/* NBSP is no control */
	/* a raw C1 byte outside UTF-8 (issue 27: 0x9b is CSI to an 8-bit terminal), alone, after
	 * text, after a cut sequence; continuation bytes 0x80-0x9f of valid UTF-8 stay */
	EXPECT_TRUE(tool_needs_esc("\x9b" "2J"));
	EXPECT_STREQ(tool_esc("\x9b" "2J", b, sizeof(b)), "\\2332J");
	EXPECT_STREQ(tool_esc("a\x80z\x9f", b, sizeof(b)), "a\\200z\\237");
	EXPECT_STREQ(tool_esc("\xe2\x9b", b, sizeof(b)), "\xe2\\233");	/* U+26Cx cut */
	EXPECT_STREQ(tool_esc("\xf0\x9f\x9b", b, sizeof(b)), "\xf0\\237\\233");	/* U+1F6xx cut */
	EXPECT_TRUE(!tool_needs_esc("\xe2\x82\x9b \xf0\x9f\x98\x9b"));	/* U+209B, U+1F61B */
	EXPECT_STREQ(tool_esc("\xc0\x9b", b, sizeof(b)), "\xc0\\233");	/* overlong lead */
	EXPECT_STREQ(tool_esc("\xed\xa0\x80\x9b", b, sizeof(b)), "\xed\xa0\\200\\233");	/* surrogate */
	EXPECT_TRUE(!tool_needs_esc("\xe2\x82\xac \xe2\x80\x9c\xe2\x80\x9d \xf0\x9f\x98\x80"));
	EXPECT_TRUE(!tool_needs_esc("\xc3\xa9\xa0\xff"));	/* stray 0xa0-0xff: no control */
	EXPECT_STREQ(tool_esc("\x9b\xe2\x82\xac", b, sizeof(b)), "\\233\xe2\x82\xac");
	EXPECT_STREQ(tool_esc("\xc2\x85\xc2\x9f\xc2\xa0\x9b", b, sizeof(b)),
		     "\\302\\205\\302\\237\xc2\xa0\\233");
	EXPECT_STREQ(tool_esc("\x9b", b, 4), "");		/* a whole escape or none */
	/* too long: cut at a whole escape, always terminated */
	EXPECT_STREQ(tool_esc("ab\033cd", b, 7), "ab\\033");
	EXPECT_STREQ(tool_esc("ab\033cd", b, 6), "ab");
	EXPECT_STREQ(tool_esc("\033", b, 1), "");
	EXPECT_STREQ(tool_esc_tmp("\033x"), "\\033x");
	return tap_done();
}

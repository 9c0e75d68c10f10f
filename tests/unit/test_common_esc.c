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
	/* too long: cut at a whole escape, always terminated */
	EXPECT_STREQ(tool_esc("ab\033cd", b, 7), "ab\\033");
	EXPECT_STREQ(tool_esc("ab\033cd", b, 6), "ab");
	EXPECT_STREQ(tool_esc("\033", b, 1), "");
	EXPECT_STREQ(tool_esc_tmp("\033x"), "\\033x");
	return tap_done();
}

/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Functions rdmadiag does not call (as git's banned.h): each is a macro that turns a call into
 * a name that does not exist, so the compiler stops with the ban and what to use instead:
 *	error: 'strtok_is_banned_use_strtok_r' undeclared
 * The build force-includes this file into every object of lib/, tools/ and tui/ (GNUmakefile,
 * BANNED_CFLAGS), so no file can forget it; tests/ are not covered.
 *
 * Why: strtok, asctime, ctime, gmtime and localtime keep their state in a static buffer (the
 * library is used from several threads, librdmadiag(3)); sprintf, vsprintf, strcpy, strcat and
 * gets write with no bound; strncpy leaves the copy without its NUL when it is cut and strncat
 * takes the room left, not the buffer's size, which is easy to get wrong.  snprintf, or a
 * memcpy of a length just measured, says how much room there is.
 *
 * The system headers that declare them come first: a macro defined before its declaration
 * would break the declaration, and their include guards keep a later #include from reading
 * them again.  Only a call is caught (the name followed by "("), as in git. */
#ifndef RD_UTIL_BANNED_H
#define RD_UTIL_BANNED_H
#include <stdio.h>
#include <string.h>
#include <time.h>

#define RD_BANNED(func, use) func##_is_banned_use_##use

#undef strtok
#define strtok(...) RD_BANNED(strtok, strtok_r)
#undef sprintf
#define sprintf(...) RD_BANNED(sprintf, snprintf)
#undef vsprintf
#define vsprintf(...) RD_BANNED(vsprintf, vsnprintf)
#undef strcpy
#define strcpy(...) RD_BANNED(strcpy, snprintf_or_memcpy)
#undef strcat
#define strcat(...) RD_BANNED(strcat, snprintf_or_memcpy)
#undef strncpy
#define strncpy(...) RD_BANNED(strncpy, snprintf_or_memcpy)
#undef strncat
#define strncat(...) RD_BANNED(strncat, snprintf_or_memcpy)
#undef gets
#define gets(...) RD_BANNED(gets, fgets)
#undef asctime
#define asctime(...) RD_BANNED(asctime, strftime)
#undef ctime
#define ctime(...) RD_BANNED(ctime, strftime)
#undef gmtime
#define gmtime(...) RD_BANNED(gmtime, gmtime_r)
#undef localtime
#define localtime(...) RD_BANNED(localtime, localtime_r)

#endif

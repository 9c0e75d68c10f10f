/* The catalogue table, shared between catalog_data.c (rows) and catalog.c (lookup). */
#ifndef RD_CATALOG_INT_H
#define RD_CATALOG_INT_H
#include <stddef.h>
#include <rdmadiag/catalog.h>

extern const struct rdiag_catalog_entry rd_catalog[];
extern const size_t rd_catalog_n;

#endif

#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H

#include <vips/vips.h>

/* Fixed-arity wrappers for what Swift cannot call directly: variadic functions and function-like macros. */

/* VIPS_INIT: vips_init plus the check that the headers match the linked library. */
static inline int cvips_init(const char *argv0) {
    return VIPS_INIT(argv0);
}

/* vips_image_new_from_file with no load options. Opens lazily: only the header is read. */
static inline VipsImage *cvips_image_new_from_file(const char *filename) {
    return vips_image_new_from_file(filename, NULL);
}

/* GType constants of header fields (G_TYPE_INT, G_TYPE_STRING). */
static const GType CVIPS_TYPE_INT = G_TYPE_INT;
static const GType CVIPS_TYPE_STRING = G_TYPE_STRING;

#endif

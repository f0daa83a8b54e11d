#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H

#include <string.h>
#include <vips/vips.h>

/* libvips' switch for the Orc code it generates at run time, exported but declared in vips/vector.h, which
 * vips.h leaves out. */
void vips_vector_set_enabled(gboolean enabled);

/* Fixed-arity wrappers for what Swift cannot call directly: variadic functions and function-like macros. */

/* VIPS_INIT: vips_init plus the check that the headers match the linked library. */
static inline int cvips_init(const char *argv0) {
    return VIPS_INIT(argv0);
}

/* vips_image_new_from_file with no load options. Opens lazily: only the header is read. */
static inline VipsImage *cvips_image_new_from_file(const char *filename) {
    return vips_image_new_from_file(filename, NULL);
}

/* vips_image_new_from_buffer: the format is sniffed from the bytes; `options` is a load option string ("" for none). */
static inline VipsImage *cvips_image_new_from_buffer(const void *data, size_t length, const char *options) {
    return vips_image_new_from_buffer(data, length, options, NULL);
}

/* vips_thumbnail of a file (load options may follow the name in brackets) to exactly `width`×`height`, upright,
 * shrinking on load; `export_profile` (or NULL) converts from an embedded ICC profile. */
static inline int cvips_thumbnail(const char *filename, VipsImage **out, int width, int height,
                                  const char *export_profile) {
    if (export_profile)
        return vips_thumbnail(filename, out, width, "height", height, "size", VIPS_SIZE_FORCE,
                              "export_profile", export_profile, NULL);
    return vips_thumbnail(filename, out, width, "height", height, "size", VIPS_SIZE_FORCE, NULL);
}

/* vips_thumbnail_buffer: as cvips_thumbnail, for an encoded image held in memory. */
static inline int cvips_thumbnail_buffer(void *data, size_t length, VipsImage **out, int width, int height,
                                         const char *export_profile) {
    if (export_profile)
        return vips_thumbnail_buffer(data, length, out, width, "height", height, "size", VIPS_SIZE_FORCE,
                                     "export_profile", export_profile, NULL);
    return vips_thumbnail_buffer(data, length, out, width, "height", height, "size", VIPS_SIZE_FORCE, NULL);
}

/* vips_extract_area: the rectangle at (`left`, `top`) of `width`×`height` pixels. */
static inline int cvips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

/* vips_thumbnail_image to exactly `width`×`height`, for an image already upright and in sRGB. */
static inline int cvips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_FORCE, "no_rotate", TRUE, NULL);
}

/* vips_autorot: turns the image upright by its orientation field, which it then removes. */
static inline int cvips_autorot(VipsImage *in, VipsImage **out) {
    return vips_autorot(in, out, NULL);
}

/* vips_colourspace to `space` (sRGB or B_W), 8 bits a band. */
static inline int cvips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space) {
    return vips_colourspace(in, out, space, NULL);
}

/* vips_copy: a new header over the same pixels, whose metadata can be changed without touching `in`. */
static inline int cvips_copy(VipsImage *in, VipsImage **out) {
    return vips_copy(in, out, NULL);
}

/* vips_jpegsave_buffer at `quality`, metadata stripped. Free `*data` with g_free. */
static inline int cvips_jpegsave_buffer(VipsImage *in, void **data, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, data, length, "Q", quality, "strip", TRUE, NULL);
}

/* vips_flatten onto white: the image without its alpha band, for formats that have none. */
static inline int cvips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[1] = {255};
    VipsArrayDouble *background = vips_array_double_new(white, 1);
    int status = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return status;
}

/* vips_pngsave_buffer; with `strip` FALSE the image's png-comment fields become text chunks. Free `*data` with g_free. */
static inline int cvips_pngsave_buffer(VipsImage *in, void **data, size_t *length, gboolean strip) {
    return vips_pngsave_buffer(in, data, length, "strip", strip, NULL);
}

/* vips_rot: a quarter, half or three-quarter turn clockwise. */
static inline int cvips_rot(VipsImage *in, VipsImage **out, VipsAngle angle) {
    return vips_rot(in, out, angle, NULL);
}

/* vips_flip: the mirror image along `direction`. */
static inline int cvips_flip(VipsImage *in, VipsImage **out, VipsDirection direction) {
    return vips_flip(in, out, direction, NULL);
}

/* vips_linear: out = in * a + b, band by band (`count` values in each array). */
static inline int cvips_linear(VipsImage *in, VipsImage **out, const double *a, const double *b, int count) {
    return vips_linear(in, out, a, b, count, NULL);
}

/* vips_copy_memory: the whole image decoded into memory, for operations that read it out of order. */
static inline VipsImage *cvips_copy_memory(VipsImage *in) {
    return vips_image_copy_memory(in);
}

/* The tap's work: the area asked of `out` is `in`'s own pixels, which are also copied into `copy`, the whole image's
   rows one after another. */
static int cvips_tap_generate(VipsRegion *out, void *sequence, void *in, void *copy, gboolean *stop) {
    VipsRegion *input = (VipsRegion *) sequence;
    VipsRect *area = &out->valid;
    if (vips_region_prepare(input, area) || vips_region_region(out, input, area, area->left, area->top)) return -1;
    size_t pel = VIPS_IMAGE_SIZEOF_PEL(input->im), line = VIPS_IMAGE_SIZEOF_LINE(input->im);
    for (int y = 0; y < area->height; y++) {
        memcpy((VipsPel *) copy + (size_t) (area->top + y) * line + (size_t) area->left * pel,
               VIPS_REGION_ADDR(input, area->left, area->top + y), (size_t) area->width * pel);
    }
    return 0;
}

/* `in` unchanged, with every pixel a saver (or any sink) computes of it also copied into `copy`, which holds the
   whole image: the pixels of a rendition kept as it is written, without computing the image twice or holding it in
   memory before the save. `copy` must outlive the computing. NULL on failure. */
static inline VipsImage *cvips_tapped(VipsImage *in, void *copy) {
    VipsImage *out = vips_image_new();
    if (vips_image_pipelinev(out, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL) ||
        vips_image_generate(out, vips_start_one, cvips_tap_generate, vips_stop_one, in, copy)) {
        g_object_unref(out);
        return NULL;
    }
    g_object_ref(in);
    vips_object_local(out, in);
    return out;
}

/* vips_cast to 8 bits a band, values clipped. */
static inline int cvips_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

/* GType constants of header fields (G_TYPE_INT, G_TYPE_STRING). */
static const GType CVIPS_TYPE_INT = G_TYPE_INT;
static const GType CVIPS_TYPE_STRING = G_TYPE_STRING;

#endif

#include <libraw/libraw.h>

/* The first byte of a processed image's pixels or encoded data (a flexible array at the end of the struct). */
static inline const unsigned char *clibraw_image_data(const libraw_processed_image_t *image) {
    return image->data;
}

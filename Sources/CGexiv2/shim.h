#include <gexiv2/gexiv2.h>

/* Serialises XMP as darktable and digiKam write their sidecars (exiv2's own layout); GExiv2XmpFormatFlags is a C enum
   of flags that Swift imports as a struct, so the plain value is passed here. */
static inline gchar *cgexiv2_xmp_packet(GExiv2Metadata *metadata, GError **error) {
    return gexiv2_metadata_try_generate_xmp_packet(metadata, (GExiv2XmpFormatFlags)0, 0, error);
}

/* Frees what gexiv2 returns: a string, a NULL-terminated list of strings, an error, a metadata object. */
static inline void cgexiv2_free_string(gchar *text) { g_free(text); }
static inline void cgexiv2_free_strings(gchar **texts) { g_strfreev(texts); }
static inline void cgexiv2_free_error(GError *error) { g_error_free(error); }
static inline void cgexiv2_release(GExiv2Metadata *metadata) { g_object_unref(metadata); }

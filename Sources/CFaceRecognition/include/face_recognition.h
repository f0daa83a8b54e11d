#ifndef PHOTOLIBD_FACE_RECOGNITION_H
#define PHOTOLIBD_FACE_RECOGNITION_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// dlib's face models, loaded once and used from one thread at a time.
typedef struct face_models face_models;

/// A face found in an image: its box in pixels, the detector's confidence, the five landmarks dlib aligns it by
/// (x and y of the eyes' corners and the base of the nose), and its 128-number descriptor.
typedef struct {
    float left, top, right, bottom;
    float confidence;
    float landmarks[10];
    float descriptor[128];
} face_found;

/// Loads the 5-point shape predictor and the ResNet recognition model from their files, and the CNN (MMOD) detector
/// when `cnn_detector_path` is not NULL (else the HOG detector built into dlib finds faces). NULL on failure, with
/// the reason in `error`.
face_models *face_models_load(const char *shape_predictor_path, const char *recognition_model_path,
                              const char *cnn_detector_path, char *error, size_t error_size);

void face_models_free(face_models *models);

/// Finds the faces in an 8-bit RGB image of `width` × `height` pixels (rows `width * 3` bytes, tightly packed) and
/// describes up to `capacity` of them, largest first, into `faces`. Returns how many faces were found (which may
/// exceed `capacity`), or -1 with the reason in `error`.
int face_models_find(face_models *models, const unsigned char *rgb, int width, int height, face_found *faces,
                     int capacity, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif

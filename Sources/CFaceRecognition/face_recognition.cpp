// A C interface to dlib's face detection, 5-point alignment and ResNet descriptors, for Swift.
#include "face_recognition.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <dlib/dnn.h>
#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>

namespace {

using namespace dlib;

// The recognition network of dlib_face_recognition_resnet_model_v1, as dlib defines it: a ResNet of 29 layers whose
// input is a 150 × 150 aligned face and whose output is a 128-number descriptor.
template <template <int, template <typename> class, int, typename> class block, int N,
          template <typename> class BN, typename SUBNET>
using residual = add_prev1<block<N, BN, 1, tag1<SUBNET>>>;

template <template <int, template <typename> class, int, typename> class block, int N,
          template <typename> class BN, typename SUBNET>
using residual_down = add_prev2<avg_pool<2, 2, 2, 2, skip1<tag2<block<N, BN, 2, tag1<SUBNET>>>>>>;

template <int N, template <typename> class BN, int stride, typename SUBNET>
using block = BN<con<N, 3, 3, 1, 1, relu<BN<con<N, 3, 3, stride, stride, SUBNET>>>>>;

template <int N, typename SUBNET> using ares = relu<residual<block, N, affine, SUBNET>>;
template <int N, typename SUBNET> using ares_down = relu<residual_down<block, N, affine, SUBNET>>;

template <typename SUBNET> using alevel0 = ares_down<256, SUBNET>;
template <typename SUBNET> using alevel1 = ares<256, ares<256, ares_down<256, SUBNET>>>;
template <typename SUBNET> using alevel2 = ares<128, ares<128, ares_down<128, SUBNET>>>;
template <typename SUBNET> using alevel3 = ares<64, ares<64, ares<64, ares_down<64, SUBNET>>>>;
template <typename SUBNET> using alevel4 = ares<32, ares<32, ares<32, SUBNET>>>;

using recognition_net = loss_metric<fc_no_bias<128, avg_pool_everything<alevel0<alevel1<alevel2<alevel3<alevel4<
    max_pool<3, 3, 2, 2, relu<affine<con<32, 7, 7, 2, 2, input_rgb_image_sized<150>>>>>>>>>>>>>;

// The MMOD detector of mmod_human_face_detector, as dlib defines it.
template <long filters, typename SUBNET> using con5d = con<filters, 5, 5, 2, 2, SUBNET>;
template <long filters, typename SUBNET> using con5 = con<filters, 5, 5, 1, 1, SUBNET>;
template <typename SUBNET>
using downsampler = relu<affine<con5d<32, relu<affine<con5d<32, relu<affine<con5d<16, SUBNET>>>>>>>>>;
template <typename SUBNET> using rcon5 = relu<affine<con5<45, SUBNET>>>;
using detection_net =
    loss_mmod<con<1, 9, 9, 1, 1, rcon5<rcon5<rcon5<downsampler<input_rgb_image_pyramid<pyramid_down<6>>>>>>>>;

void say(char *error, size_t size, const std::string &reason) {
    if (error == nullptr || size == 0) return;
    std::strncpy(error, reason.c_str(), size - 1);
    error[size - 1] = '\0';
}

}  // namespace

struct face_models {
    shape_predictor landmarks;
    recognition_net recognition;
    frontal_face_detector hog = get_frontal_face_detector();
    std::unique_ptr<detection_net> cnn;
};

extern "C" face_models *face_models_load(const char *shape_predictor_path, const char *recognition_model_path,
                                         const char *cnn_detector_path, char *error, size_t error_size) {
    try {
        auto models = std::make_unique<face_models>();
        deserialize(shape_predictor_path) >> models->landmarks;
        deserialize(recognition_model_path) >> models->recognition;
        if (cnn_detector_path != nullptr) {
            models->cnn = std::make_unique<detection_net>();
            deserialize(cnn_detector_path) >> *models->cnn;
        }
        return models.release();
    } catch (const std::exception &failure) {
        say(error, error_size, failure.what());
        return nullptr;
    }
}

extern "C" void face_models_free(face_models *models) { delete models; }

extern "C" int face_models_find(face_models *models, const unsigned char *rgb, int width, int height,
                                face_found *faces, int capacity, char *error, size_t error_size) {
    try {
        matrix<rgb_pixel> image(height, width);
        std::memcpy(&image(0, 0), rgb, size_t(width) * size_t(height) * 3);
        std::vector<std::pair<rectangle, double>> found;
        if (models->cnn) {
            for (const auto &detection : (*models->cnn)(image)) found.emplace_back(detection.rect, detection.detection_confidence);
        } else {
            std::vector<rect_detection> detections;
            models->hog(image, detections);
            for (const auto &detection : detections) found.emplace_back(detection.rect, detection.detection_confidence);
        }
        std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.first.area() > b.first.area(); });
        const int described = std::min(int(found.size()), std::max(capacity, 0));
        std::vector<matrix<rgb_pixel>> chips(described);
        for (int index = 0; index < described; ++index) {
            const full_object_detection shape = models->landmarks(image, found[index].first);
            extract_image_chip(image, get_face_chip_details(shape, 150, 0.25), chips[index]);
            face_found &face = faces[index];
            face.left = found[index].first.left();
            face.top = found[index].first.top();
            face.right = found[index].first.right() + 1;
            face.bottom = found[index].first.bottom() + 1;
            face.confidence = float(found[index].second);
            for (unsigned long part = 0; part < 5 && part < shape.num_parts(); ++part) {
                face.landmarks[part * 2] = shape.part(part).x();
                face.landmarks[part * 2 + 1] = shape.part(part).y();
            }
        }
        if (described > 0) {
            const std::vector<matrix<float, 0, 1>> descriptors = models->recognition(chips);
            for (int index = 0; index < described; ++index) {
                std::copy(descriptors[index].begin(), descriptors[index].end(), faces[index].descriptor);
            }
        }
        return int(found.size());
    } catch (const std::exception &failure) {
        say(error, error_size, failure.what());
        return -1;
    }
}

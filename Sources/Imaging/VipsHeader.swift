import CVips

/// Typed reads of a loaded image's header fields.
///
/// Each read checks the field's type first: libvips' getters report a missing or mistyped field
/// through the process-wide error buffer, where it would end up in another thread's error message.
struct VipsHeader {
    let image: UnsafeMutablePointer<VipsImage>

    func string(_ name: String) -> String? {
        let type = vips_image_get_typeof(image, name)
        guard type == CVIPS_TYPE_STRING || type == vips_ref_string_get_type() else { return nil }
        var value: UnsafePointer<CChar>?
        guard vips_image_get_string(image, name, &value) == 0, let value else { return nil }
        return String(cString: value)
    }

    func int(_ name: String) -> Int? {
        guard vips_image_get_typeof(image, name) == CVIPS_TYPE_INT else { return nil }
        var value: Int32 = 0
        guard vips_image_get_int(image, name, &value) == 0 else { return nil }
        return Int(value)
    }

    func blob(_ name: String) -> [UInt8]? {
        guard vips_image_get_typeof(image, name) == vips_blob_get_type() else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(image, name, &data, &length) == 0, let data else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }
}

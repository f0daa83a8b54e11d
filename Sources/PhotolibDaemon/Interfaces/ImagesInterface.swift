import Varlink

/// `io.photolibd.Images`: described now, served in a later version.
struct ImagesInterface: VarlinkInterface {
    let name = "io.photolibd.Images"
    let description = imagesInterfaceDescription

    func handle(_ call: VarlinkCall, context: VarlinkCallContext, replies: VarlinkReplyWriter) async throws {
        switch call.methodName {
        case "RequestImage", "RequestImageData", "StartCaching", "StopCaching":
            throw VarlinkError.methodNotImplemented(call.method)
        default:
            throw VarlinkError.methodNotFound(call.method)
        }
    }
}

// A terminal photo picker written the way AssetsLibrary code is written: enumerate the groups, list the
// assets of the chosen one, and export the chosen asset's full-resolution image.
//
//     swift run photo-picker                      # asks which group and which photo
//     swift run photo-picker 1 3 ~/picked.jpg     # group 1, photo 3, written to ~/picked.jpg
import AssetsLibrary
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let library = ALAssetsLibrary()

/// Waits for the blocks of an AssetsLibrary call (they run on a queue of the library's).
func waitFor<Value>(_ call: (@escaping (Value) -> Void, @escaping ALAssetsLibraryAccessFailureBlock) -> Void) -> Value {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var value: Value?
    call({ value = $0; done.signal() }, { error in
        FileHandle.standardError.write(Data("photo-picker: \(error.map { "\($0)" } ?? "the library cannot be read")\n".utf8))
        exit(1)
    })
    done.wait()
    return value!
}

/// The number the user picks: from the command line when given, else asked for.
func choose(_ what: String, argument: Int, count: Int) -> Int {
    if arguments.count > argument {
        guard let number = Int(arguments[argument]), (1...count).contains(number) else {
            FileHandle.standardError.write(Data("photo-picker: \(what) must be a number from 1 to \(count)\n".utf8))
            exit(64)
        }
        return number - 1
    }
    while true {
        print("\(what) (1-\(count)): ", terminator: "")
        guard let line = readLine() else { exit(0) }
        if let number = Int(line), (1...count).contains(number) { return number - 1 }
    }
}

let groups: [ALAssetsGroup] = waitFor { done, failure in
    var found: [ALAssetsGroup] = []
    library.enumerateGroupsWithTypes(ALAssetsGroupAll, usingBlock: { group, _ in
        if let group { found.append(group) } else { done(found) }
    }, failureBlock: failure)
}
for (number, group) in groups.enumerated() {
    print("\(number + 1). \(group.value(forProperty: ALAssetsGroupPropertyName) as? String ?? "?") (\(group.numberOfAssets()))")
}
let group = groups[choose("Group", argument: 0, count: groups.count)]
group.setAssetsFilter(.allPhotos())

var assets: [ALAsset] = []
group.enumerateAssets { asset, _, _ in
    guard let asset else { return }
    assets.append(asset)
}
guard !assets.isEmpty else {
    print("No photos in this group.")
    exit(0)
}
let dateFormat = DateFormatter()
dateFormat.dateStyle = .medium
dateFormat.timeStyle = .short
for (number, asset) in assets.enumerated() {
    let representation = asset.defaultRepresentation()!
    let date = (asset.value(forProperty: ALAssetPropertyDate) as? Date).map(dateFormat.string(from:)) ?? "no date"
    let size = representation.dimensions()
    print("\(number + 1). \(representation.filename())  \(Int(size.width))×\(Int(size.height))  \(date)")
}
let asset = assets[choose("Photo", argument: 1, count: assets.count)]

let representation = asset.defaultRepresentation()!
guard let image = representation.fullResolutionImage() else {
    FileHandle.standardError.write(Data("photo-picker: the photo cannot be read\n".utf8))
    exit(1)
}
let output = arguments.count > 2
    ? URL(fileURLWithPath: (arguments[2] as NSString).expandingTildeInPath)
    : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(representation.filename())
do {
    try image.data().write(to: output)
    print("Wrote \(Int(image.size.width))×\(Int(image.size.height)) \(image.mimeType) to \(output.path)")
} catch {
    FileHandle.standardError.write(Data("photo-picker: cannot write \(output.path): \(error.localizedDescription)\n".utf8))
    exit(1)
}

/// An object whose first member is one long array, so that a reader can take its elements one by one while
/// the rest of the text is still arriving: a page of assets, read as its reply comes in.
///
/// The writer must put the array first; a reader given another order reads the object whole, with
/// `init(reading:)`.
public protocol JSONArrayLedObject: JSONReadable {
    associatedtype Element

    /// The key of the array that leads the object.
    static var leadingArrayKey: StaticString { get }

    /// Reads one element of the array onto the end of `elements`.
    static func readElement(_ json: inout JSONReader, appendingTo elements: inout [Element]) throws(JSONReadError)

    /// The object from the array's elements, already read, and the members after the array, which `json` reads
    /// with `readRemainingMembers`.
    init(elements: [Element], readingMembersAfterArray json: inout JSONReader) throws(JSONReadError)
}

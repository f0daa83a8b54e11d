import FuzzSupport
import PredicateQuery

/// Every way a predicate nests: groups, negations, `IN` lists, comparison modifiers, and terms around groups.
let predicateNesting = DeepNesting([
    .init("(", ")"), .init("NOT ", ""), .init("!", ""), .init("{", "}", lead: "fileSize IN "), .init("ANY ", ""),
    .init("NOT (", ")"), .init("pixelWidth > 1 AND (", ")"), .init("TRUEPREDICATE OR ", ""), .init("{", "}"),
    .init("SUBQUERY(", ")"), .init("(", " & 1)"), .init("{", "}", lead: "ANY keywords IN "),
])

func checkPredicate(_ input: UnsafeRawBufferPointer) {
    predicateNesting.withText(of: input, checkPredicateText)
}

func checkPredicateText(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    for schema in [PredicateSchema.assets, PredicateSchema.collections] {
        guard let predicate = try? QueryPredicate(parsing: text, schema: schema) else { continue }
        _ = predicate.evaluate(sampleValue)
    }
}

/// A value of the key's type, or nil for every second optional key.
private func sampleValue(of key: PredicateKey) -> PredicateValue? {
    if key.isOptional, key.name.count % 2 == 0 { return nil }
    switch key.type {
    case .integer, .mediaType, .mediaSubtypes: return .integer(Int64(key.name.count))
    case .real, .date: return .real(1.5e9)
    case .boolean: return .boolean(true)
    case .text, .enumeration: return .text("Summer ÄÖ \(key.name)")
    case .textList: return .texts(["Places|Paris", "cat", key.name])
    }
}

@main
struct FuzzPredicate {
    /// Feeds each input as predicate text, parsed and checked against the asset and the collection keys,
    /// and what parses evaluated (as observers of collections are) on sample values; an input in deep-nesting mode
    /// stands for predicate text nested as deep as it asks.
    static func main() throws {
        try FuzzTarget.run(checkPredicate)
    }
}

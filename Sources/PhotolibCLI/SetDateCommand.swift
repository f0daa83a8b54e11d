import ArgumentParser
import Foundation
import PhotoLibrary

struct SetDateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-date",
        abstract: "Set when assets were taken, or shift their dates (a camera clock that was wrong).",
        discussion: """
            --to sets one date; without a zone it is the wall-clock time where the asset was taken (the asset's own \
            UTC offset is kept, this machine's is used when the asset had no date). --shift moves each date by the \
            same amount, as after a trip with a camera clock an hour behind: --shift +1h. --zone writes each date in \
            another UTC offset, keeping the instant: --shift +7h --zone +09:00 for a camera left on Paris time in Tokyo.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var selection: AssetSelection

    @Option(help: ArgumentHelp("The date: 2024-05-01, 2024-05-01 14:03, 2024-05-01T14:03:22+02:00.", valueName: "date"))
    var to: DateArgument?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Move each date by this much: +1h, -30m, +1d2h, -45s.", valueName: "offset"))
    var shift: TimeShift?

    @Option(help: ArgumentHelp("Write each date in this UTC offset, keeping the instant: +09:00, -05:00, Z.",
                               valueName: "offset"))
    var zone: UTCOffset?

    func validate() throws {
        guard to != nil || shift != nil || zone != nil else { throw ValidationError("say what to set: --to, --shift or --zone") }
        if to != nil, shift != nil { throw ValidationError("--to sets the date and --shift moves it: give one of them") }
    }

    func run() async throws {
        let library = try await connection.connect()
        let found = try await selection.resolve(in: library, scope: .includingHidden) { "Change the dates of \($0)?" }
        var changes = PhotoLibrary.ChangeBuilder()
        var dated: [(Asset, Timestamp)] = []
        for asset in found {
            guard let date = try newDate(of: asset) else { continue }
            changes.setCreationDate(date, for: asset.id)
            dated.append((asset, date))
        }
        _ = try await library.performChanges(changes)
        for (asset, date) in dated {
            Console.print("\(asset.summary): \(Display.localTime(asset.creationDate)) → \(Display.dateWithZone(date, source: .user))")
        }
    }

    /// The asset's date as the options say; nil (and a message) for an asset with no date to shift.
    private func newDate(of asset: Asset) throws -> Timestamp? {
        var date: Timestamp
        if let to {
            date = to.timestamp(utcOffsetSeconds: asset.creationDate?.utcOffsetSeconds ?? UTCOffset.local(at: to.asUTC))
        } else if let current = asset.creationDate {
            date = current
            date.secondsSince1970 += Double(shift?.seconds ?? 0)
        } else {
            Console.printError("\(asset.summary) has no date to move: give it one with --to\n")
            return nil
        }
        if let zone { date.utcOffsetSeconds = zone.seconds }
        return date
    }
}

/// A date typed on the command line: `2024-05-01`, `2024-05-01 14:03[:22]`, with `T` or a space, and an optional
/// UTC offset (`Z`, `+02:00`, `-0530`).
struct DateArgument: ExpressibleByArgument {
    let year, month, day, hour, minute, second: Int
    /// The offset written with the date, if one was.
    let offset: UTCOffset?

    init?(argument: String) {
        var text = Substring(argument.trimmingCharacters(in: .whitespaces))
        var offset: UTCOffset?
        if text.hasSuffix("Z") || text.hasSuffix("z") {
            offset = UTCOffset(seconds: 0)
            text = text.dropLast()
        } else if let sign = text.lastIndex(where: { $0 == "+" || $0 == "-" }), text.distance(from: text.startIndex, to: sign) > 9 {
            guard let parsed = UTCOffset(argument: String(text[sign...])) else { return nil }
            offset = parsed
            text = text[..<sign]
        }
        let parts = text.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == " " || $0 == "T" || $0 == "t" })
        guard (1...2).contains(parts.count) else { return nil }
        let calendarDay = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let time = parts.count == 2 ? parts[1].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) } : []
        guard calendarDay.count == 3, (0...3).contains(time.count), time.count != 1, !(calendarDay + time).contains(nil) else {
            return nil
        }
        let numbers = (calendarDay + time).map { $0! } + Array(repeating: 0, count: 3 - time.count)
        (year, month, day, hour, minute, second) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
        self.offset = offset
        guard (1...9999).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(self.day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
    }

    /// The instant this wall-clock time is at `utcOffsetSeconds`, unless the argument named its own offset.
    func timestamp(utcOffsetSeconds: Int) -> Timestamp {
        Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                  utcOffsetSeconds: offset?.seconds ?? utcOffsetSeconds)
    }

    /// The wall-clock time read as if it were UTC, to look up a zone's offset then.
    var asUTC: Timestamp { timestamp(utcOffsetSeconds: 0) }

    private static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A signed amount of time typed as days, hours, minutes and seconds: `+1h`, `-30m`, `+1d2h30m`.
struct TimeShift: ExpressibleByArgument {
    let seconds: Int

    init?(argument: String) {
        guard let sign = argument.first, sign == "+" || sign == "-", argument.count > 2 else { return nil }
        var total = 0, digits = ""
        for character in argument.dropFirst() {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            let unit = ["d": 86_400, "h": 3_600, "m": 60, "s": 1][String(character)]
            guard let unit, let number = Int(digits) else { return nil }
            total += number * unit
            digits = ""
        }
        guard digits.isEmpty else { return nil }
        seconds = sign == "-" ? -total : total
    }
}

/// A UTC offset typed as `+09:00`, `-0530`, `+2` or `Z`.
struct UTCOffset: ExpressibleByArgument {
    let seconds: Int

    init(seconds: Int) {
        self.seconds = seconds
    }

    init?(argument: String) {
        if argument == "Z" || argument == "z" {
            seconds = 0
            return
        }
        guard let sign = argument.first, sign == "+" || sign == "-" else { return nil }
        let digits = argument.dropFirst().filter { $0 != ":" }
        guard [1, 2, 4].contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let hours = Int(digits.prefix(digits.count == 4 ? 2 : digits.count)),
              let minutes = Int(digits.count == 4 ? String(digits.suffix(2)) : "0"),
              hours <= 14, minutes < 60 else { return nil }
        seconds = (sign == "-" ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }

    /// This machine's offset at the wall-clock time `local` (read as UTC).
    static func local(at local: Timestamp) -> Int {
        let zone = TimeZone.current
        let guess = local.secondsSince1970 - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: local.secondsSince1970)))
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: guess))
    }
}

import ArgumentParser
import PredicateQuery

extension PhotolibCommand {
    /// Runs the command the arguments name, as ArgumentParser's `main` does, with two of git's habits it lacks: a
    /// mistyped command is refused with the command it most likely meant, and a mistake a command finds as it runs
    /// (`photolib rate ID 7`) is shown with that command's usage, where ArgumentParser would show the top level's.
    public static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: any ParsableCommand
        do {
            if let mistake = MistypedCommand(in: arguments) { mistake.exit() }
            command = try await asyncParseAsRoot(arguments)
        } catch {
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            exitWithUsage(of: type(of: command), error: error.message)
        } catch {
            exit(withError: error)
        }
    }

    /// Prints `error` and the usage of `command` as ArgumentParser prints a mistake it finds, and exits with 64.
    static func exitWithUsage(of command: any ParsableCommand.Type, error: String) -> Never {
        let name = fullName(of: command)
        Console.printError(
            "Error: \(error)\nUsage: \(usageString(for: command))\n  See '\(name) --help' for more information.\n")
        exit(withError: ExitCode.validationFailure)
    }

    /// The names from the top down to `command`, e.g. `photolib album add`.
    static func fullName(of command: any ParsableCommand.Type) -> String {
        func path(from parent: any ParsableCommand.Type) -> [String]? {
            if ObjectIdentifier(parent) == ObjectIdentifier(command) { return [parent._commandName] }
            for subcommand in parent.configuration.subcommands {
                if let rest = path(from: subcommand) { return [parent._commandName] + rest }
            }
            return nil
        }
        return (path(from: Self.self) ?? [command._commandName]).joined(separator: " ")
    }
}

/// A word where a command's name goes that names none of its subcommands, with the one it most likely meant.
struct MistypedCommand {
    let word: String
    let parent: any ParsableCommand.Type

    /// The options before a command's name that take a value (ConnectionOptions'), to step over with it.
    private static let optionsWithValues: Set<String> = ["--socket", "--timeout"]

    /// ArgumentParser's own options, which it answers before any command (the value of the first is a shell's name).
    private static let builtInOptions = ["--generate-completion-script", "--experimental-dump-help"]

    /// The first mistyped command name in `arguments`, if any.
    init?(in arguments: [String]) {
        if arguments.contains(where: { argument in Self.builtInOptions.contains { argument.hasPrefix($0) } }) {
            return nil
        }
        var command: any ParsableCommand.Type = PhotolibCommand.self
        var index = arguments.startIndex
        while index < arguments.endIndex, !command.configuration.subcommands.isEmpty {
            let argument = arguments[index]
            if argument == "--" { return nil }
            if argument.hasPrefix("-") {
                index += Self.optionsWithValues.contains(argument) ? 2 : 1
                continue
            }
            guard let named = command.configuration.subcommands.first(where: { Self.names(of: $0).contains(argument) })
            else {
                if ObjectIdentifier(command) == ObjectIdentifier(PhotolibCommand.self), argument == "help" {
                    return nil
                }
                (word, parent) = (argument, command)
                return
            }
            command = named
            index += 1
        }
        return nil
    }

    /// Refuses the word, naming the command it most likely meant.
    func exit() -> Never {
        let name = PhotolibCommand.fullName(of: parent)
        let commands = parent.configuration.subcommands.flatMap(Self.names)
        let suggestion =
            Suggestion.closest(to: word, among: commands).map { "; did you mean '\($0)'?" }
            ?? "; the commands are: \(commands.joined(separator: ", "))"
        PhotolibCommand.exitWithUsage(of: parent, error: "'\(word)' is not a \(name) command\(suggestion)")
    }

    private static func names(of command: any ParsableCommand.Type) -> [String] {
        [command._commandName] + command.configuration.aliases
    }
}

/// The word most like a mistyped one, as git suggests a command.
enum Suggestion {
    /// The candidate spelled most like `word`: a few edits away (two, or one per three letters of a longer word).
    static func closest(to word: String, among candidates: [String]) -> String? {
        Spelling.closest(to: word, among: candidates, maximumEdits: max(2, word.count / 3))
    }
}

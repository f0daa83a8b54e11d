#!/usr/bin/env python3
"""Writes a program's man page (mdoc) from its own help, as swift-argument-parser dumps it (--experimental-dump-help),
and the page's hand-written sections (EXAMPLES, FILES, ENVIRONMENT, SEE ALSO…) from docs/man/.

The page reads as a man page rather than as --help printed again: the synopsis shows what a person types (never the
`help` subcommand ArgumentParser adds), -h/--help and --version are said once, and an option that several commands
share is described once (under OPTIONS when every command takes it, else in SHARED OPTIONS, each command naming it),
and a discussion's "Environment:" paragraph gives way to the page's own ENVIRONMENT section.
Usage: man-page.py SECTION DATE OS SECTIONS_FILE < dump.json > page   (OS: the footer's "photolibd 0.1.0")
"""
import json
import sys
from collections import Counter

SECTION, DATE, OS, EXTRA = sys.argv[1:5]
# Said once, under OPTIONS, rather than under every command.
HELP_NAMES = {"help", "h", "version", "experimental-dump-help", "generate-completion-script"}


def text(line):
    """A line of running text: roff's escape character and a leading control character made literal."""
    line = line.replace("\\", "\\e")
    return "\\&" + line if line[:1] in (".", "'") else line


def paragraphs(body):
    """ArgumentParser's abstract or discussion as mdoc: blank lines are paragraph breaks, indented lines literal."""
    out, literal = [], False
    for line in (body or "").strip("\n").split("\n"):
        indented = line.startswith("  ")
        if indented != literal:
            out.append(".Bd -literal -offset indent" if indented else ".Ed")
            literal = indented
        if literal:
            out.append(text(line[2:]))
        elif line.strip():
            out.append(text(line.strip()))
        elif out and out[-1] != ".Pp":
            out.append(".Pp")
    if literal:
        out.append(".Ed")
    return out


def displayed(command):
    return [a for a in command.get("arguments") or [] if a.get("shouldDisplay", True)]


def subcommands(command):
    return [c for c in command.get("subcommands") or [] if c.get("shouldDisplay", True) and c["commandName"] != "help"]


def name_of(name):
    return ("-" if name["kind"] == "short" or name["kind"] == "longWithSingleDash" else "--") + name["name"]


def key(argument):
    """An option told apart from another by its names and its help."""
    names = tuple(name_of(n) for n in argument.get("names") or [])
    return names, argument.get("abstract", "")


def is_help(argument):
    return any(n["name"] in HELP_NAMES for n in argument.get("names") or [])


def value(argument):
    return "\\&" + (argument.get("valueName") or "value")


def flags(argument):
    """The option's names as mdoc (`Fl w , Fl -where Ar predicate`)."""
    names = [("Fl " + name_of(n)[1:]) for n in argument.get("names") or []]
    macro = " , ".join(names)
    return macro + (" Ar " + value(argument) if argument["kind"] == "option" else "")


def usage(argument):
    """The argument as the synopsis shows it."""
    if argument["kind"] == "positional":
        part = "Ar " + value(argument) + (" ..." if argument.get("isRepeating") else "")
    else:
        preferred = argument.get("preferredName") or argument["names"][0]
        part = "Fl " + name_of(preferred)[1:] + (" Ar " + value(argument) if argument["kind"] == "option" else "")
    # Oo … Oc rather than Op, which would take in everything after it on the line.
    return "Oo " + part + " Oc" if argument.get("isOptional") or argument["kind"] == "flag" else part


def described(argument):
    """An .It entry for the argument: its names, its help, its default and its values."""
    out = [".It " + (("Ar " + value(argument)) if argument["kind"] == "positional" else flags(argument))]
    out += paragraphs(argument.get("abstract"))
    out += paragraphs(argument.get("discussion"))
    if argument.get("defaultValue") and argument["kind"] == "option" and "default" not in (argument.get("abstract") or ""):
        out.append(text("Default: " + argument["defaultValue"] + "."))
    return out


def leaves(command, path):
    """Every command a person runs under `command`, with the words that name it, depth first."""
    found = []
    for sub in subcommands(command):
        words = path + [sub["commandName"]]
        found.append((words, sub))
        found += leaves(sub, words)
    return found


def option_list(arguments):
    out = [".Bl -tag -width Ds"]
    for argument in arguments:
        out += described(argument)
    return out + [".El"]


def page(tool, extra):
    root = tool["command"]
    program = root["commandName"]
    commands = leaves(root, [])
    runnable = [(words, c) for words, c in commands if not subcommands(c)]
    counts = Counter(key(a) for _, c in runnable for a in displayed(c) if a["kind"] != "positional" and not is_help(a))
    own = [a for a in displayed(root) if not is_help(a)]
    # The program's own options, and those every command takes, are described once under OPTIONS.
    common = {k for k, n in counts.items() if runnable and n == len(runnable)} | {key(a) for a in own}
    shared = {k for k, n in counts.items() if n >= 3 and k not in common}
    first = {key(a): a for a in own}
    for _, c in runnable:
        for a in displayed(c):
            first.setdefault(key(a), a)

    out = [f".Dd {DATE}", f".Dt {program.upper()} {SECTION}", f".Os {OS}", ".Sh NAME", f".Nm {program}",
           ".Nd " + text((root.get("abstract") or "").rstrip("."))]
    out += [".Sh SYNOPSIS", ".Nm"]
    if commands:
        out += ["." + usage(first[k]) for k in sorted(common)] + [".Ar command", ".Op Ar options", ".Op Ar arguments"]
    else:
        out += ["." + usage(a) for a in own]
    description = (root.get("discussion") or root.get("abstract") or "").split("\n\n")
    if commands and not root.get("discussion"):
        description.append("Each command is described under COMMANDS with its own options; the options every command "
                           "takes are under OPTIONS, those several take under SHARED OPTIONS.")
    if ".Sh ENVIRONMENT" in extra:
        # --help's short word on the environment: the page's own ENVIRONMENT section says it in full.
        description = [p for p in description if not p.startswith("Environment:")]
    out += [".Sh DESCRIPTION"] + paragraphs("\n\n".join(description))

    out += [".Sh OPTIONS", ".Bl -tag -width Ds"]
    for k in sorted(common, key=lambda k: (k not in {key(a) for a in own}, k)):
        out += described(first[k])
    out += [".It Fl h , Fl -help", "Show the help" + (" of the program or of a command" if commands else "") + " and exit."]
    if any(n["name"] == "version" for a in displayed(root) for n in a.get("names") or []):
        out += [".It Fl -version", "Show the version and exit."]
    out.append(".El")

    if commands:
        out += [".Sh COMMANDS", ".Bl -tag -width Ds"]
        for words, command in commands:
            arguments = [a for a in displayed(command) if not is_help(a)]
            positional = [usage(a) for a in arguments if a["kind"] == "positional"]
            mine = [a for a in arguments if a["kind"] != "positional" and key(a) not in common | shared]
            theirs = sorted(name_of(first[k]["preferredName"] or first[k]["names"][0]) for k in
                            {key(a) for a in arguments if key(a) in shared})
            line = ".It Nm " + " ".join(["Cm " + w for w in words] + positional + (["Op Ar options"] if mine or theirs else []))
            out.append(line)
            out += paragraphs(command.get("abstract"))
            if command.get("discussion"):
                out += [".Pp"] + paragraphs(command["discussion"])
            if subcommands(command):
                out.append(text("Its commands follow."))
            described_positionals = [a for a in arguments if a["kind"] == "positional" and a.get("abstract")]
            if mine or described_positionals:
                out += option_list(described_positionals + mine)
            if theirs:
                out += [".Pp", text("Also " + ", ".join(theirs) + " (see SHARED OPTIONS).")]
        out.append(".El")
    if shared:
        out += [".Sh SHARED OPTIONS", "Options that several commands take, the same for each:", ".Bl -tag -width Ds"]
        for k in sorted(shared):
            out += described(first[k])
        out.append(".El")

    out += [line for line in extra.split("\n") if line and not line.startswith('.\\"')]
    return "\n".join(out) + "\n"


with open(EXTRA, encoding="utf-8") as sections:
    sys.stdout.write(page(json.load(sys.stdin), sections.read()))

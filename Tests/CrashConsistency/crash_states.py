"""The states a power cut could leave, built from a faultfs log (Tests/FaultFileSystem/faultfs.c).

The model is ext4's default (data=ordered, delayed allocation, one journal), taken no stronger than it is:
- Changes to names and sizes (create, mkdir, unlink, rmdir, rename, link, symlink, truncate, fallocate) are
  journalled and reach the disk in the order they were made: a cut keeps a prefix of them. A symbolic link's text
  is part of its creation.
- A sync (fsync, fdatasync) makes durable the bytes written to the file before it. When the file's inode changed since
  the journal's last commit (a name change, a write that grew it, or any write for fsync), the sync commits the
  journal: every name change before it becomes durable. A sync of a folder does the same when an entry of it changed.
  Otherwise the journal commits when it pleases (every 5 s): any longer prefix may have reached the disk.
- Bytes written and not synced may reach the disk or not, each write independently and in any order, and a write
  may be torn at 4 KiB page boundaries (a page not written reads as before, or as zeros past the old end). Bytes
  never reach a file through a name change that did not (a write after a create or truncate that was cut is lost).
A crash point is a moment in the log; at each one the states kept are the oldest (only what was synced), the newest
(everything, as kill -9 leaves it), names without data, and random mixes of the rest.
"""
import os
import random
import stat
from urllib.parse import unquote_to_bytes

PAGE = 4096
NAME_CHANGES = set("CDURNLSTX")


class Op:
    __slots__ = ("index", "tag", "paths", "numbers", "inode", "inodes", "durable_through")

    def __init__(self, index, tag, paths, numbers):
        self.index, self.tag, self.paths, self.numbers = index, tag, paths, numbers
        self.inode = None          # the inode a write, truncate or sync acts on
        self.inodes = ()           # the inodes and folders a name change touches
        self.durable_through = -1  # for a sync: the last name change it makes durable


def parse_log(path):
    """The operations of a faultfs log, in order."""
    ops = []
    arity = {"C": 1, "D": 1, "U": 1, "R": 1, "N": 2, "L": 2, "S": 2, "T": 1, "W": 1, "X": 1, "F": 1, "G": 1, "M": 1}
    with open(path, "rb") as log:
        for line in log:
            fields = line.split()
            tag = fields[0].decode()
            count = arity[tag]
            paths = [unquote_to_bytes(field).decode("utf-8", "surrogateescape") for field in fields[1:1 + count]]
            ops.append(Op(len(ops), tag, paths, [int(field) for field in fields[1 + count:]]))
    return ops


class Snapshot:
    """The files before the log starts: inode number -> (kind, mode, content); path -> inode number."""

    def __init__(self, root):
        self.inodes, self.names = {}, {"/": 0}
        self.inodes[0] = ("d", 0o755, None)
        for folder, directories, files in os.walk(root):
            relative = "/" + os.path.relpath(folder, root) if folder != root else ""
            for name in directories + files:
                full = os.path.join(folder, name)
                info = os.lstat(full)
                if stat.S_ISDIR(info.st_mode):
                    entry = ("d", info.st_mode & 0o7777, None)
                elif stat.S_ISLNK(info.st_mode):
                    entry = ("l", 0o777, os.readlink(full))
                else:
                    with open(full, "rb") as source:
                        entry = ("f", info.st_mode & 0o7777, source.read())
                self.inodes.setdefault(info.st_ino + 1, entry)
                self.names[f"{relative}/{name}"] = info.st_ino + 1


def parent(path):
    return path.rsplit("/", 1)[0] or "/"


class History:
    """The log replayed against the snapshot's names: which inode each operation acts on, and what each sync makes
    durable."""

    def __init__(self, snapshot, ops):
        self.snapshot, self.ops = snapshot, ops
        self.kinds = {number: entry[0] for number, entry in snapshot.inodes.items()}
        names = dict(snapshot.names)
        next_inode = -1
        sizes = {number: len(entry[2]) for number, entry in snapshot.inodes.items() if entry[0] == "f"}
        committed_sizes = dict(sizes)
        changed, grew, written = set(), set(), set()  # inodes touched since the journal's last commit
        committed = -1  # the last operation a journal commit made durable
        for op in ops:
            tag, paths = op.tag, op.paths
            if tag in "CDS":
                path = paths[-1]
                names[path] = next_inode
                self.kinds[next_inode] = {"C": "f", "D": "d", "S": "l"}[tag]
                op.inode, op.inodes = next_inode, (next_inode, names.get(parent(path)))
                sizes[next_inode] = 0
                next_inode -= 1
            elif tag in "UR":
                op.inode = names.pop(paths[0], None)
                op.inodes = (op.inode, names.get(parent(paths[0])))
            elif tag == "L":
                op.inode = names.get(paths[0])
                names[paths[1]] = op.inode
                op.inodes = (op.inode, names.get(parent(paths[1])))
            elif tag == "N":
                rename(names, paths[0], paths[1], op.numbers[0] & 2)
                op.inode = names.get(paths[1])
                op.inodes = (op.inode, names.get(parent(paths[0])), names.get(parent(paths[1])))
            elif tag in "TWXFG":
                op.inode = names.get(paths[0])
                op.inodes = (op.inode,)
            if tag == "T":
                sizes[op.inode] = op.numbers[0]
            elif tag == "X" and not op.numbers[0] & 1:
                sizes[op.inode] = max(sizes.get(op.inode, 0), op.numbers[1] + op.numbers[2])
            elif tag == "W":
                sizes[op.inode] = max(sizes.get(op.inode, 0), op.numbers[0] + op.numbers[1])
                written.add(op.inode)
                if sizes[op.inode] > committed_sizes.get(op.inode, 0):
                    grew.add(op.inode)
            if tag in NAME_CHANGES:
                changed.update(inode for inode in op.inodes if inode is not None)
            elif tag in "FG":
                datasync = tag == "F" and op.numbers[0] == 1
                if op.inode in changed or op.inode in grew or (tag == "F" and not datasync and op.inode in written):
                    committed = op.index
                    changed, grew, written = set(), set(), set()
                    committed_sizes = dict(sizes)
                op.durable_through = committed
        self.syncs = [op.index for op in ops if op.tag in "FG"]

    def marks_before(self, cut):
        return [op.paths[0] for op in self.ops[:cut] if op.tag == "M"]

    def crash_points(self):
        """Right before each sync (the most unsynced work), and the end of the log."""
        return self.syncs + [len(self.ops)]

    def state(self, cut, kept_names, keep_write):
        """The files a cut before operation `cut` leaves when the first `kept_names` name changes reached the disk
        and `keep_write(op)` says, for each unsynced write, which of its pages did (None, 'all' or a set)."""
        names = dict(self.snapshot.names)
        content = {number: bytearray(entry[2]) for number, entry in self.snapshot.inodes.items() if entry[0] == "f"}
        links = {number: entry[2] for number, entry in self.snapshot.inodes.items() if entry[0] == "l"}
        synced = set()  # writes made durable by a later sync of their inode, before the cut
        pending = {}
        for op in self.ops[:cut]:
            if op.tag == "W":
                pending.setdefault(op.inode, []).append(op.index)
            elif op.tag == "F" and op.inode in pending:
                synced.update(pending.pop(op.inode))
        cut_names = set()  # inodes with a name change that did not reach the disk
        kept = 0
        for op in self.ops[:cut]:
            if op.tag in NAME_CHANGES:
                if kept >= kept_names:
                    cut_names.add(op.inode)
                    continue
                kept += 1
                apply_name_change(op, names, content, links)
            elif op.tag == "W" and op.inode in content and op.inode not in cut_names:
                pages = "all" if op.index in synced else keep_write(op)
                if pages:
                    write(content[op.inode], op, pages)
        return names, content, links

    def required_names(self, cut):
        """How many name changes before `cut` a sync made durable."""
        through = max([self.ops[index].durable_through for index in self.syncs if index < cut], default=-1)
        return sum(1 for op in self.ops[:through + 1] if op.tag in NAME_CHANGES)

    def name_changes_before(self, cut):
        return sum(1 for op in self.ops[:cut] if op.tag in NAME_CHANGES)

    def variants(self, cut, rng, random_count):
        """(description, kept name changes, page chooser) for the states kept at `cut`."""
        low, high = self.required_names(cut), self.name_changes_before(cut)
        yield "synced only", low, lambda op: None
        yield "everything", high, lambda op: "all"
        if high > low:
            yield "names without data", high, lambda op: None
        for number in range(random_count):
            seed = rng.random()

            def choose(op, seed=seed):
                local = random.Random(f"{seed}-{op.index}")
                pick = local.random()
                if pick < 0.4:
                    return None
                if pick < 0.7:
                    return "all"
                return {page for page in pages_of(op) if local.random() < 0.5}  # torn
            yield f"mix {number + 1}", rng.randint(low, high), choose


def rename(names, source, target, exchange):
    moved = {path: inode for path, inode in names.items() if path == source or path.startswith(source + "/")}
    if exchange:
        other = {path: inode for path, inode in names.items() if path == target or path.startswith(target + "/")}
        for path in list(moved) + list(other):
            del names[path]
        for path, inode in moved.items():
            names[target + path[len(source):]] = inode
        for path, inode in other.items():
            names[source + path[len(target):]] = inode
        return
    for path in [path for path in names if path == target or path.startswith(target + "/")]:
        del names[path]
    for path, inode in moved.items():
        del names[path]
        names[target + path[len(source):]] = inode


def apply_name_change(op, names, content, links):
    tag, paths = op.tag, op.paths
    if tag == "C":
        names[paths[0]] = op.inode
        content[op.inode] = bytearray()
    elif tag == "D":
        names[paths[0]] = op.inode
    elif tag == "S":
        names[paths[1]] = op.inode
        links[op.inode] = paths[0]
    elif tag in "UR":
        names.pop(paths[0], None)
    elif tag == "L":
        names[paths[1]] = op.inode
    elif tag == "N":
        rename(names, paths[0], paths[1], op.numbers[0] & 2)
    elif tag == "T" and op.inode in content:
        data = content[op.inode]
        size = op.numbers[0]
        del data[size:]
        data.extend(bytes(size - len(data)))
    elif tag == "X" and op.inode in content and not op.numbers[0] & 1:  # without FALLOC_FL_KEEP_SIZE
        end = op.numbers[1] + op.numbers[2]
        data = content[op.inode]
        data.extend(bytes(max(0, end - len(data))))


def pages_of(op):
    offset, length = op.numbers[0], op.numbers[1]
    return range(offset // PAGE, (offset + length - 1) // PAGE + 1)


DATA = {}


def write(data, op, pages):
    offset, length, data_offset = op.numbers
    source = DATA["file"]
    source.seek(data_offset)
    chunk = source.read(length)
    if pages != "all":
        # Only the chosen pages of the write: the rest stays as it was (zeros past the old end).
        for page in pages_of(op):
            start, end = max(offset, page * PAGE), min(offset + length, (page + 1) * PAGE)
            if page in pages:
                put(data, start, chunk[start - offset:end - offset])
        return
    put(data, offset, chunk)


def put(data, offset, chunk):
    if len(data) < offset:
        data.extend(bytes(offset - len(data)))
    data[offset:offset + len(chunk)] = chunk


def materialize(state, root, snapshot_kinds):
    """Writes the names and contents of `state` under `root` (which must not exist)."""
    names, content, links = state
    os.makedirs(root)
    written = {}  # inode -> its first path, so that hard links stay links
    for path in sorted(names, key=lambda path: path.count("/")):
        if path == "/":
            continue
        inode = names[path]
        target = root + path
        if not os.path.isdir(os.path.dirname(target)):
            continue  # its folder's creation did not reach the disk
        if inode in links:
            os.symlink(links[inode], target)
        elif inode in written:
            os.link(written[inode], target)
        elif inode in content:
            written[inode] = target
            with open(target, "wb") as output:
                output.write(content[inode])
        elif snapshot_kinds.get(inode) == "d":
            os.mkdir(target)

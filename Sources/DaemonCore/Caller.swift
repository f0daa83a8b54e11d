/// Who made a call: the process at the other end of its connection, as the kernel vouches for it. The interfaces make
/// it from the transport's peer credentials; the rest of the daemon knows callers only by this.
package struct Caller: Sendable, Hashable {
    let pid: Int32
    package let uid: UInt32
    let gid: UInt32

    package init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

import DaemonCore
import Varlink

extension VarlinkCallContext {
    /// The caller, from the connection's peer credentials; nil when the transport has none.
    var caller: Caller? { peer.map { Caller(pid: $0.pid, uid: $0.uid, gid: $0.gid) } }
}

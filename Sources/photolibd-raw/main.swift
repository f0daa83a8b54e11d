// photolibd-raw, the daemon's RAW reader: its commands are in RawHelper, shared with the package's one binary
// (photolibd).
import RawHelper

RawHelper.main()

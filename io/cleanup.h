// Removing temporary output files when the process is killed by SIGINT, SIGTERM or SIGHUP.
//
// Destructors cannot run when a signal ends the process, so AtomicFileWriter also records its temporary path
// here; the signal handler unlinks every recorded path and then re-raises the signal with the default action,
// so the exit status still says "killed by SIGxxx". Everything the handler touches is preallocated and
// lock-free (fixed slots of char arrays guarded by atomics): it is async-signal-safe.
#pragma once

namespace pcrypt::io {

// Installs the handlers for SIGINT, SIGTERM and SIGHUP, except for signals the process was told to ignore
// (e.g. SIGHUP under nohup). Call once, early, from the main thread.
void install_signal_cleanup();

// Records a path to unlink if a signal arrives. Returns a slot for unregister_temp_path, or -1 when the path
// is too long or every slot is in use (the file is then simply not cleaned up on signals).
int register_temp_path(const char* path);
// Forgets the slot (before the path is renamed or unlinked normally). -1 is ignored.
void unregister_temp_path(int slot);

// Unlinks every registered path now, as the signal handler does. For tests.
void unlink_registered_temp_paths();

}  // namespace pcrypt::io

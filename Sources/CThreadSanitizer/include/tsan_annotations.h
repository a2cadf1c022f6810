#ifndef BLURLABEL_TSAN_ANNOTATIONS_H
#define BLURLABEL_TSAN_ANNOTATIONS_H
/* Tells ThreadSanitizer about a lock it cannot see: Swift's `Mutex` (Synchronization) waits in
   the kernel (a futex) from libswiftSynchronization, which is not instrumented, so when two
   threads contend TSan sees neither the release nor the acquire and reports the state the mutex
   guards as a data race. `LockedValue` (BlurredLabelCore/Concurrency) calls these around every
   critical section, with the address of the lock object as the mutex's identity.

   They forward to TSan's mutex annotation interface (sanitizer/tsan_interface.h) only when this
   file is compiled with -fsanitize=thread (SwiftPM's `--sanitize=thread` compiles C targets so);
   otherwise they are empty. No suppression: TSan still checks everything, it is only told the
   truth about the lock (and so also finds double locks and lock-order inversions). */

/* A lock came into being at `lock` / is about to be freed. */
void bl_tsan_lock_created(void *lock);
void bl_tsan_lock_destroyed(void *lock);
/* Around taking the lock: before asking for it, once it is held. */
void bl_tsan_before_lock(void *lock);
void bl_tsan_after_lock(void *lock);
/* Around giving it back: while still held, once it is released. */
void bl_tsan_before_unlock(void *lock);
void bl_tsan_after_unlock(void *lock);

#endif

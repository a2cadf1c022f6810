#include "tsan_annotations.h"

#if defined(__has_feature)
#  if __has_feature(thread_sanitizer)
#    define BL_TSAN 1
#  endif
#endif
#if !defined(BL_TSAN) && defined(__SANITIZE_THREAD__)
#  define BL_TSAN 1
#endif

#ifdef BL_TSAN
/* From compiler-rt's sanitizer/tsan_interface.h (declared here so no header path is needed). */
void __tsan_mutex_create(void *addr, unsigned flags);
void __tsan_mutex_destroy(void *addr, unsigned flags);
void __tsan_mutex_pre_lock(void *addr, unsigned flags);
int __tsan_mutex_post_lock(void *addr, unsigned flags, int recursion);
int __tsan_mutex_pre_unlock(void *addr, unsigned flags);
void __tsan_mutex_post_unlock(void *addr, unsigned flags);

void bl_tsan_lock_created(void *lock) { __tsan_mutex_create(lock, 0); }
void bl_tsan_lock_destroyed(void *lock) { __tsan_mutex_destroy(lock, 0); }
void bl_tsan_before_lock(void *lock) { __tsan_mutex_pre_lock(lock, 0); }
void bl_tsan_after_lock(void *lock) { (void)__tsan_mutex_post_lock(lock, 0, 0); }
void bl_tsan_before_unlock(void *lock) { (void)__tsan_mutex_pre_unlock(lock, 0); }
void bl_tsan_after_unlock(void *lock) { __tsan_mutex_post_unlock(lock, 0); }
#else
void bl_tsan_lock_created(void *lock) { (void)lock; }
void bl_tsan_lock_destroyed(void *lock) { (void)lock; }
void bl_tsan_before_lock(void *lock) { (void)lock; }
void bl_tsan_after_lock(void *lock) { (void)lock; }
void bl_tsan_before_unlock(void *lock) { (void)lock; }
void bl_tsan_after_unlock(void *lock) { (void)lock; }
#endif

/* Linked into every executable of the sanitizer build (VKFLUID_SANITIZE) and
 * nowhere else: dlclose keeps the library loaded. The Vulkan loader unloads
 * the driver and the layers when the instance is destroyed; LeakSanitizer
 * then no longer sees the pointers a driver keeps in its own globals and
 * reports that memory as leaked (lavapipe: 112 bytes after any capture).
 * With the libraries kept until the process ends, what LeakSanitizer reports
 * is memory nothing points to, and a leak inside a library is named by the
 * library (tools/lsan.supp). The executable's definition takes precedence
 * over libc's for every library, the loader included. */
#include <dlfcn.h>

int dlclose(void *handle)
{
    (void)handle;
    return 0;
}

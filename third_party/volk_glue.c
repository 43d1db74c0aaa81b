/* Compiles Debian's volk (libvulkan-volk-dev ships volk.c as a header-style
 * source) into the project: the only mutable global is volk's function table. */
#include <volk.c>

#include "gpu_swapchain.h"

#include <string.h>

#include "gpu_descriptors.h"

static void release_images(vf_swapchain *sc)
{
    VkDevice dev = sc->gpu->device;
    for (uint32_t i = 0; i < sc->image_count; i++) {
        vf_set_cache_forget(sc->gpu, sc->images[i].serial);
        if (sc->images[i].view)
            vkDestroyImageView(dev, sc->images[i].view, NULL);
        if (sc->render_done[i])
            vkDestroySemaphore(dev, sc->render_done[i], NULL);
        memset(&sc->images[i], 0, sizeof sc->images[i]);
        sc->render_done[i] = VK_NULL_HANDLE;
    }
    sc->image_count = 0;
}

void vf_swapchain_release(vf_swapchain *sc)
{
    if (!sc->gpu)
        return;
    vkDeviceWaitIdle(sc->gpu->device);
    release_images(sc);
    if (sc->swapchain)
        vkDestroySwapchainKHR(sc->gpu->device, sc->swapchain, NULL);
    sc->swapchain = VK_NULL_HANDLE;
    sc->extent = (VkExtent2D){0, 0};
}

static VkSurfaceFormatKHR pick_format(vf_gpu *gpu, VkSurfaceKHR surface)
{
    VkSurfaceFormatKHR formats[64];
    uint32_t n = 64;
    VkSurfaceFormatKHR best = {VK_FORMAT_B8G8R8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR};
    if (vkGetPhysicalDeviceSurfaceFormatsKHR(gpu->physical, surface, &n, formats) < 0 || n == 0)
        return best;
    for (uint32_t i = 0; i < n; i++)
        if ((formats[i].format == VK_FORMAT_B8G8R8A8_SRGB || formats[i].format == VK_FORMAT_R8G8B8A8_SRGB) &&
            formats[i].colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR)
            return formats[i];
    return formats[0];
}

static VkPresentModeKHR pick_present_mode(vf_gpu *gpu, VkSurfaceKHR surface, bool vsync)
{
    if (vsync)
        return VK_PRESENT_MODE_FIFO_KHR;
    VkPresentModeKHR modes[16];
    uint32_t n = 16;
    if (vkGetPhysicalDeviceSurfacePresentModesKHR(gpu->physical, surface, &n, modes) < 0)
        return VK_PRESENT_MODE_FIFO_KHR;
    VkPresentModeKHR best = VK_PRESENT_MODE_FIFO_KHR;
    for (uint32_t i = 0; i < n; i++) {
        if (modes[i] == VK_PRESENT_MODE_MAILBOX_KHR)
            return modes[i];
        if (modes[i] == VK_PRESENT_MODE_IMMEDIATE_KHR)
            best = modes[i];
    }
    return best;
}

vf_result vf_swapchain_build(vf_swapchain *sc, vf_gpu *gpu, VkSurfaceKHR surface, uint32_t width, uint32_t height, bool vsync)
{
    sc->gpu = gpu;
    sc->surface = surface;
    sc->vsync = vsync;
    vkDeviceWaitIdle(gpu->device);
    VkSurfaceCapabilitiesKHR caps;
    vf_result res = VF_VK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(gpu->physical, surface, &caps));
    if (res != VF_OK)
        return res;
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) {
        extent.width = width < caps.minImageExtent.width ? caps.minImageExtent.width : width;
        extent.height = height < caps.minImageExtent.height ? caps.minImageExtent.height : height;
        if (extent.width > caps.maxImageExtent.width)
            extent.width = caps.maxImageExtent.width;
        if (extent.height > caps.maxImageExtent.height)
            extent.height = caps.maxImageExtent.height;
    }
    if (width == 0 || height == 0 || extent.width == 0 || extent.height == 0) {
        vf_swapchain_release(sc); /* minimised: no swapchain of zero size */
        return VF_OK;
    }
    VkSurfaceFormatKHR fmt = pick_format(gpu, surface);
    uint32_t count = caps.minImageCount + 1;
    if (caps.maxImageCount && count > caps.maxImageCount)
        count = caps.maxImageCount;
    if (count > VF_MAX_SWAPCHAIN_IMAGES)
        count = VF_MAX_SWAPCHAIN_IMAGES;
    VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    if (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT)
        usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    if (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT)
        usage |= VK_IMAGE_USAGE_TRANSFER_DST_BIT; /* a compute renderer's output is copied in */
    VkSwapchainKHR old = sc->swapchain;
    VkSwapchainCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .surface = surface,
        .minImageCount = count,
        .imageFormat = fmt.format,
        .imageColorSpace = fmt.colorSpace,
        .imageExtent = extent,
        .imageArrayLayers = 1,
        .imageUsage = usage,
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .preTransform = caps.currentTransform,
        .compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
        .presentMode = pick_present_mode(gpu, surface, vsync),
        .clipped = VK_TRUE,
        .oldSwapchain = old,
    };
    VkSwapchainKHR fresh = VK_NULL_HANDLE;
    if ((res = VF_VK(vkCreateSwapchainKHR(gpu->device, &ci, NULL, &fresh))) != VF_OK)
        return res;
    release_images(sc);
    if (old)
        vkDestroySwapchainKHR(gpu->device, old, NULL);
    sc->swapchain = fresh;
    sc->format = fmt.format;
    sc->extent = extent;
    vf_gpu_name(gpu, VK_OBJECT_TYPE_SWAPCHAIN_KHR, (uint64_t)fresh, "swapchain");
    VkImage images[VF_MAX_SWAPCHAIN_IMAGES];
    uint32_t n = VF_MAX_SWAPCHAIN_IMAGES;
    if ((res = VF_VK(vkGetSwapchainImagesKHR(gpu->device, fresh, &n, images))) != VF_OK)
        return res;
    for (uint32_t i = 0; i < n; i++) {
        vf_image *img = &sc->images[i];
        *img = (vf_image){
            .gpu = gpu,
            .serial = ++gpu->next_serial,
            .image = images[i],
            .format = fmt.format,
            .width = extent.width,
            .height = extent.height,
            .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
            .layout = VK_IMAGE_LAYOUT_UNDEFINED,
            .usage = usage,
        };
        VkImageViewCreateInfo vci = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
            .image = images[i],
            .viewType = VK_IMAGE_VIEW_TYPE_2D,
            .format = fmt.format,
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
        };
        if ((res = VF_VK(vkCreateImageView(gpu->device, &vci, NULL, &img->view))) != VF_OK)
            return res;
        VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        if ((res = VF_VK(vkCreateSemaphore(gpu->device, &sci, NULL, &sc->render_done[i]))) != VF_OK)
            return res;
        sc->image_count = i + 1;
        vf_gpu_name(gpu, VK_OBJECT_TYPE_IMAGE, (uint64_t)images[i], "swapchain image");
        vf_gpu_name(gpu, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)img->view, "swapchain image view");
        vf_gpu_name(gpu, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)sc->render_done[i], "swapchain render done");
    }
    return VF_OK;
}

vf_result vf_swapchain_acquire(vf_swapchain *sc, VkSemaphore acquired, uint32_t *index)
{
    if (!sc->swapchain)
        return VF_ERR_UNSUPPORTED;
    VkResult vr = vkAcquireNextImageKHR(sc->gpu->device, sc->swapchain, UINT64_MAX, acquired, VK_NULL_HANDLE, index);
    if (vr == VK_ERROR_OUT_OF_DATE_KHR)
        return VF_ERR_UNSUPPORTED;
    if (vr == VK_SUBOPTIMAL_KHR)
        return VF_OK; /* the semaphore was signalled: render and present, then rebuild */
    return VF_VK(vr);
}

vf_result vf_swapchain_present(vf_swapchain *sc, uint32_t index, bool *rebuild)
{
    VkPresentInfoKHR pi = {
        .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
        .waitSemaphoreCount = 1,
        .pWaitSemaphores = &sc->render_done[index],
        .swapchainCount = 1,
        .pSwapchains = &sc->swapchain,
        .pImageIndices = &index,
    };
    VkResult vr = vkQueuePresentKHR(sc->gpu->queue, &pi);
    sc->images[index].layout = VK_IMAGE_LAYOUT_UNDEFINED;
    if (vr == VK_ERROR_OUT_OF_DATE_KHR || vr == VK_SUBOPTIMAL_KHR) {
        *rebuild = true;
        return VF_OK;
    }
    return VF_VK(vr);
}

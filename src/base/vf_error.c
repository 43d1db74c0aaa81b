#include "vf_error.h"

static const char *const vf_result_messages[] = {
#define VF_X_MSG(name, msg) msg,
    VF_RESULT_LIST(VF_X_MSG)
#undef VF_X_MSG
};

static const char *const vf_result_names[] = {
#define VF_X_NAME(name, msg) #name,
    VF_RESULT_LIST(VF_X_NAME)
#undef VF_X_NAME
};

const char *vf_result_message(vf_result r)
{
    if ((unsigned)r >= VF_RESULT_COUNT)
        return "unknown error";
    return vf_result_messages[r];
}

const char *vf_result_name(vf_result r)
{
    if ((unsigned)r >= VF_RESULT_COUNT)
        return "VF_ERR_UNKNOWN";
    return vf_result_names[r];
}

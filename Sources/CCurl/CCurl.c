#include "CCurl.h"
#include <dlfcn.h>
#include <pthread.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
} api;

static const char *load_error = "libcurl was not loaded";
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        load_error = dlerror();
        return;
    }
#define SYMBOL(field, name)                                                                        \
    if (!(*(void **)&api.field = dlsym(lib, name))) {                                              \
        load_error = dlerror();                                                                    \
        return;                                                                                    \
    }
    SYMBOL(global_init, "curl_global_init")
    SYMBOL(easy_init, "curl_easy_init")
    SYMBOL(easy_setopt, "curl_easy_setopt")
    SYMBOL(easy_perform, "curl_easy_perform")
    SYMBOL(easy_getinfo, "curl_easy_getinfo")
    SYMBOL(easy_cleanup, "curl_easy_cleanup")
    SYMBOL(easy_strerror, "curl_easy_strerror")
#undef SYMBOL
    if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        load_error = "curl_global_init failed";
        return;
    }
    load_error = NULL;
}

const char *ccurl_load(void) {
    pthread_once(&once, load);
    return load_error;
}

CURL *ccurl_easy_init(void) { return api.easy_init(); }
void ccurl_easy_cleanup(CURL *curl) { api.easy_cleanup(curl); }
CURLcode ccurl_easy_perform(CURL *curl) { return api.easy_perform(curl); }
const char *ccurl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }

CURLcode ccurl_setopt_long(CURL *curl, CURLoption option, long value) { return api.easy_setopt(curl, option, value); }
CURLcode ccurl_setopt_string(CURL *curl, CURLoption option, const char *value) { return api.easy_setopt(curl, option, value); }
CURLcode ccurl_setopt_pointer(CURL *curl, CURLoption option, void *value) { return api.easy_setopt(curl, option, value); }
CURLcode ccurl_setopt_write_function(CURL *curl, ccurl_write_function function) {
    return api.easy_setopt(curl, CURLOPT_WRITEFUNCTION, function);
}
CURLcode ccurl_getinfo_long(CURL *curl, CURLINFO info, long *value) { return api.easy_getinfo(curl, info, value); }
CURLcode ccurl_getinfo_string(CURL *curl, CURLINFO info, char **value) { return api.easy_getinfo(curl, info, value); }

// libcurl's easy interface for `DomainVerification`: curl_easy_setopt and curl_easy_getinfo are
// variadic, which Swift cannot call, so each argument type gets a plain function here.
#include <curl/curl.h>

typedef size_t (*ccurl_write_function)(char *data, size_t size, size_t count, void *context);

static inline CURLcode ccurl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode ccurl_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode ccurl_setopt_write_function(CURL *curl, ccurl_write_function function) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, function);
}

static inline CURLcode ccurl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}

static inline CURLcode ccurl_getinfo_string(CURL *curl, CURLINFO info, char **value) {
    return curl_easy_getinfo(curl, info, value);
}

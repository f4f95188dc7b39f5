// libcurl's easy interface for `DomainVerification`, loaded with dlopen the first time it is
// needed: linked, libcurl and the ~30 libraries it needs would load into every `deeplinker` run
// (measured: +4.8 ms and +6 MiB RSS per start). curl_easy_setopt and curl_easy_getinfo are
// variadic, which Swift cannot call, so each argument type gets a plain function here.
#include <curl/curl.h>

/// Loads libcurl.so.4 once and runs curl_global_init; NULL on success, else why it failed.
const char *ccurl_load(void);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *curl);
CURLcode ccurl_easy_perform(CURL *curl);
const char *ccurl_easy_strerror(CURLcode code);

typedef size_t (*ccurl_write_function)(char *data, size_t size, size_t count, void *context);

CURLcode ccurl_setopt_long(CURL *curl, CURLoption option, long value);
CURLcode ccurl_setopt_string(CURL *curl, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *curl, CURLoption option, void *value);
CURLcode ccurl_setopt_write_function(CURL *curl, ccurl_write_function function);
CURLcode ccurl_getinfo_long(CURL *curl, CURLINFO info, long *value);
CURLcode ccurl_getinfo_string(CURL *curl, CURLINFO info, char **value);

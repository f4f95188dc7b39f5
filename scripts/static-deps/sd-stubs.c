/* libdbus's static archive refers to two libsystemd functions, used only when a *server* (a bus)
   is started by socket activation. deeplinkerd is a bus client, so it links libdbus without
   libsystemd and these report "no sockets were passed" (SPEC §9: fast cold start). */
int sd_listen_fds(int unset_environment) {
  (void)unset_environment;
  return 0;
}

int sd_is_socket(int fd, int family, int type, int listening) {
  (void)fd;
  (void)family;
  (void)type;
  (void)listening;
  return 0;
}

// `kcraft serve`'s sockets: cpp-httplib in front of ServeCore (serve_core.h). Every method and path goes
// to ServeCore, so a request without the token gets 401 whatever it asks for, and the token is checked
// before the body is read.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "agent/serve/serve_core.h"

namespace kcraft::agent::serve {

struct HttpListen {
  std::string host = "127.0.0.1";
  int port = 8808;       // 0: any free port (what it is goes to `listening`)
  unsigned threads = 0;  // HTTP worker threads (0: enough for the limits)
};

// Serves until SIGINT or SIGTERM; then ends every session (their processes with them) and returns 0.
// `listening` is called with the bound port once the socket listens. Returns 2 when it cannot bind.
int run_http_server(ServeCore& core, const HttpListen& listen, const ServeLimits& limits, std::ostream* log,
                    const std::function<void(int port)>& listening);

}  // namespace kcraft::agent::serve

#pragma once
// What the judge and its executor say to each other beyond the client protocol: one "sync" exchange after
// every answer. The judge sends a token it drew after the answer arrived; the executor's request loop echoes
// it when it reads its next line, that is, once the request has ended. Every line the executor wrote for the
// request came before the echo, so the judge can count the request's answers (judge.h).
#include <optional>
#include <string>

namespace ks::runner {

std::string syncRequestLine(const std::string& token);        // {"sync": "<token>"}
std::optional<std::string> syncRequestToken(const std::string& line);  // the token of such a line
std::string syncReplyLine(const std::string& token);          // {"event": "sync", "token": "<token>"}
std::optional<std::string> syncReplyToken(const std::string& line);    // the token of such a line

}  // namespace ks::runner

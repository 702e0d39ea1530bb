#include "agent/common/transcript.h"

#include <sstream>
#include <stdexcept>

namespace kcraft::agent {

Transcript::Transcript(const std::filesystem::path& path)
    : path_(path), start_(std::chrono::steady_clock::now()) {
  if (!path_.empty()) {
    if (path_.has_parent_path()) std::filesystem::create_directories(path_.parent_path());
    out_.open(path_, std::ios::trunc);
    if (!out_) throw std::runtime_error("cannot write transcript " + path_.string());
  }
}

void Transcript::write(nlohmann::json event) {
  event["seq"] = events_.size();
  event["t"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (out_.is_open()) {
    out_ << event.dump() << '\n';
    out_.flush();
  }
  events_.push_back(std::move(event));
}

std::vector<nlohmann::json> read_transcript(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read transcript " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return parse_transcript(text.str(), path.string());
}

std::vector<nlohmann::json> parse_transcript(const std::string& text, const std::string& source) {
  std::vector<nlohmann::json> events;
  std::istringstream in(text);
  std::string line;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    try {
      events.push_back(nlohmann::json::parse(line));
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e999
      throw std::runtime_error(source + ":" + std::to_string(n) + ": not a JSON event: " + e.what());
    }
  }
  return events;
}

}  // namespace kcraft::agent

// Retry timing pieces on their own: Retry-After parsing and the backoff formula.
#include <gtest/gtest.h>

#include "agent/providers/retry.h"

namespace kcraft::agent {
namespace {

TEST(RetryAfter, DeltaSeconds) {
  EXPECT_EQ(parse_retry_after("120", 0), 120.0);
  EXPECT_EQ(parse_retry_after(" 0 ", 0), 0.0);
  EXPECT_EQ(parse_retry_after("99999999999999", 0), 1e9);  // saturates; the caller caps it
}

TEST(RetryAfter, HttpDates) {
  // 1445412480 is Wed, 21 Oct 2015 07:28:00 GMT.
  const std::time_t now = 1445412480 - 90;
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now), 90.0);        // RFC 1123
  EXPECT_EQ(parse_retry_after("Wednesday, 21-Oct-15 07:28:00 GMT", now), 90.0);    // RFC 850
  EXPECT_EQ(parse_retry_after("Wed Oct 21 07:28:00 2015", now), 90.0);             // asctime
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now + 1000), 0.0);  // already past
}

TEST(RetryAfter, Unreadable) {
  EXPECT_FALSE(parse_retry_after("", 0));
  EXPECT_FALSE(parse_retry_after("soon", 0));
  EXPECT_FALSE(parse_retry_after("-5", 0));
  EXPECT_FALSE(parse_retry_after_ms("1.5"));
  EXPECT_EQ(parse_retry_after_ms("250"), 250.0);
}

TEST(Backoff, FullJitterOfACappedExponential) {
  EXPECT_DOUBLE_EQ(backoff_seconds(0, 1000, 60000, 0.5), 0.5);
  EXPECT_DOUBLE_EQ(backoff_seconds(3, 1000, 60000, 0.5), 4.0);
  EXPECT_DOUBLE_EQ(backoff_seconds(3, 1000, 60000, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(backoff_seconds(10, 1000, 60000, 0.5), 30.0);    // 1024 s capped at 60 s
  EXPECT_DOUBLE_EQ(backoff_seconds(500, 1000, 60000, 0.25), 15.0);  // no overflow
}

}  // namespace
}  // namespace kcraft::agent

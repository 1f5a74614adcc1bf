// Passwords: which ones a reconcile tries, and that none of them survives in a text.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/rediscluster/passwords.h"
#include "tests/unit/rediscluster/cluster_fixture.h"

namespace kun::rediscluster {
namespace {

class OneSecret final : public LiveObjects {
 public:
  explicit OneSecret(Object s) : secret_(std::make_shared<const Object>(std::move(s))) {}
  bool synced(const Resource&) const override { return true; }
  ObjectPtr get(const Resource& r, std::string_view ns, std::string_view name) const override {
    return r == res::secrets && ns == "default" && name == "redis-auth-test" ? secret_ : nullptr;
  }

 private:
  ObjectPtr secret_;
};

TEST(Passwords, CurrentThenSecretThenRememberedThenNone) {
  // "old-pass" in base64.
  OneSecret live(Object{{"data", {{"password", "b2xkLXBhc3M="}}}});
  const auto rc = test::cluster(Object{{"password", "new-pass"}});
  EXPECT_EQ(passwordInSecret(live, "default", "test"), "old-pass");
  EXPECT_EQ(candidatePasswords(rc, live, "older"), (std::vector<std::string>{"new-pass", "old-pass", "older", ""}));
  EXPECT_EQ(candidatePasswords(rc, live, "new-pass"), (std::vector<std::string>{"new-pass", "old-pass", ""}));
  const auto none = test::cluster();
  EXPECT_EQ(candidatePasswords(none, OneSecret(Object{{"data", Object::object()}})), (std::vector<std::string>{""}));
}

TEST(Passwords, ReadOnceFromTheSecretTheSameAsEachOnItsOwn) {
  // "old-pass" and "older" in base64.
  OneSecret live(Object{{"data", {{"password", "b2xkLXBhc3M="}, {"previous-password", "b2xkZXI="}}}});
  const auto rc = test::cluster(Object{{"password", "new-pass"}});
  const SecretPasswords read = secretPasswords(live, "default", "test");
  EXPECT_EQ(read.secret, live.get(res::secrets, "default", "redis-auth-test"));
  EXPECT_EQ(read.current, passwordInSecret(live, "default", "test"));
  EXPECT_EQ(read.previous, previousPasswordInSecret(live, "default", "test"));
  EXPECT_EQ(candidatePasswords(rc, read, "x"), candidatePasswords(rc, live, "x"));
  // No Secret: nothing, like a default SecretPasswords (what a reconcile starts from).
  const SecretPasswords none = secretPasswords(live, "default", "other");
  EXPECT_EQ(none.secret, nullptr);
  EXPECT_EQ(none.current, SecretPasswords{}.current);
  EXPECT_EQ(none.previous, SecretPasswords{}.previous);
}

// Three nodes, each answering to passwords[index] (-1: unreachable).
ClusterView answering(std::vector<int> indexes) {
  ClusterView v;
  for (int i : indexes) {
    RedisNodeView n;
    n.reachable = i >= 0;
    n.password = i;
    v.redis.push_back(n);
  }
  return v;
}

TEST(Passwords, TheSecretKeepsThePasswordTheNodesStillHave) {
  const auto rc = test::cluster(Object{{"password", "pw-8"}});
  const std::vector<std::string> tried{"pw-8", "pw-4", "pw-prop", ""};
  // A change to pw-4 written to the Secret but made on no node, then another to pw-8: the
  // nodes still have pw-prop, which the Secret keeps (keeping pw-4 dropped the one they have).
  const SecretPasswords secondChange{nullptr, "pw-4", "pw-prop"};
  EXPECT_EQ(passwordToKeep(rc, answering({2, 2, 2}), secondChange, tried), "pw-prop");
  EXPECT_EQ(passwordToKeep(rc, answering({2, -1, 1}), secondChange, tried), "pw-prop");
  // The first change had reached them: pw-4 is theirs.
  EXPECT_EQ(passwordToKeep(rc, answering({1, 1, 1}), secondChange, tried), "pw-4");
  // But one out of reach (hung through both changes) may still have pw-prop, and may hold
  // the only data left (kun-sim prop --vary-cluster --seed 1301 --minutes 1).
  EXPECT_EQ(passwordToKeep(rc, answering({1, -1, 1}), secondChange, tried), "pw-prop");
  // A first change: the Secret's password is the nodes'.
  EXPECT_EQ(passwordToKeep(rc, answering({2, 2, 2}), SecretPasswords{nullptr, "pw-prop", ""}, tried), "pw-prop");
  // The change written: kept until every node has the new one.
  const SecretPasswords written{nullptr, "pw-8", "pw-prop"};
  EXPECT_EQ(passwordToKeep(rc, answering({0, 2, 0}), written, tried), "pw-prop");
  EXPECT_EQ(passwordToKeep(rc, answering({0, -1, 0}), written, tried), "pw-prop");
  EXPECT_EQ(passwordToKeep(rc, answering({0, 0, 0}), written, tried), "");
}

TEST(Passwords, RedactHidesEveryOccurrenceLongestFirst) {
  EXPECT_EQ(redact("auth s3cret and s3cret2", {"s3cret", "s3cret2", ""}), "auth *** and ***");
  EXPECT_EQ(redact("nothing here", {""}), "nothing here");
}

RC_GTEST_PROP(PasswordsProperty, RedactedTextNeverContainsThePassword, ()) {
  const auto pw = *rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::inRange<char>('a', 'd')));
  const auto text = *rc::gen::container<std::string>(rc::gen::inRange<char>('a', 'e'));
  const std::string out = redact(text + pw + text, {pw});
  RC_ASSERT(out.find(pw) == std::string::npos);
}

}  // namespace
}  // namespace kun::rediscluster

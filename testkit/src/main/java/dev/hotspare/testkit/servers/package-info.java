/**
 * Real servers for tests, public so that every module (and every user testing their own adapter set-up) starts
 * them the same way instead of copying them: {@link dev.hotspare.testkit.servers.TestRedis} (an embedded
 * {@code redis-server}), {@link dev.hotspare.testkit.servers.TestPostgres} (embedded PostgreSQL) and
 * {@link dev.hotspare.testkit.servers.MockKubernetes} (the fabric8 mock API server in CRUD mode, with
 * {@link dev.hotspare.testkit.servers.RbacCoverage} checking its request log against shipped RBAC rules). Each
 * needs its server library on the test class path; they are optional dependencies of the testkit. The shared
 * servers can be swapped for external ones through environment variables.
 */
package dev.hotspare.testkit.servers;

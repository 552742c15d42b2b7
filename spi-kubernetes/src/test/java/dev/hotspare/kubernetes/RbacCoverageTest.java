package dev.hotspare.kubernetes;

import dev.hotspare.testkit.servers.MockKubernetes;
import dev.hotspare.testkit.servers.RbacCoverage;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The RBAC check itself: how a request maps to a permission, and that it really fails on a request the file
 * does not grant (every other test class runs the check on everything it sent).
 */
class RbacCoverageTest {

    @Test
    void requestsMapToGroupResourceAndVerb() {
        assertThat(RbacCoverage.permissionOf(new MockKubernetes.Request("GET", "/api/v1/namespaces/pong/pods?labelSelector=a%3Db", false)))
                .contains(new RbacCoverage.Permission("", "pods", "list"));
        assertThat(RbacCoverage.permissionOf(new MockKubernetes.Request("GET", "/api/v1/namespaces/pong/pods?watch=true&resourceVersion=4", false)))
                .contains(new RbacCoverage.Permission("", "pods", "watch"));
        assertThat(RbacCoverage.permissionOf(new MockKubernetes.Request("PUT", "/apis/coordination.k8s.io/v1/namespaces/x/leases/a.b", false)))
                .contains(new RbacCoverage.Permission("coordination.k8s.io", "leases", "update"));
        assertThat(RbacCoverage.permissionOf(new MockKubernetes.Request("GET", "/api/v1/nodes/node-1", false)))
                .contains(new RbacCoverage.Permission("", "nodes", "get"));
        assertThat(RbacCoverage.permissionOf(new MockKubernetes.Request("POST", "/api/v1/namespaces", false)))
                .contains(new RbacCoverage.Permission("", "namespaces", "create"));
        assertThat(RbacCoverage.permissionOf(new MockKubernetes.Request("GET", "/apis/hive.openshift.io/v1", false))).isEmpty();
    }

    @Test
    void anUngrantedRequestFailsTheCheck() {
        assertThatThrownBy(() -> RbacCoverage.of(RbacFile.SHIPPED).check(List.of(new MockKubernetes.Request("DELETE", "/api/v1/namespaces/pong", false))))
                .isInstanceOf(AssertionError.class).hasMessageContaining("delete namespaces");
        assertThatThrownBy(() -> RbacCoverage.of(RbacFile.SHIPPED).check(List.of(new MockKubernetes.Request("GET", "/api/v1/secrets", false))))
                .isInstanceOf(AssertionError.class).hasMessageContaining("list secrets");
        RbacCoverage.of(RbacFile.SHIPPED).check(List.of(new MockKubernetes.Request("GET", "/api/v1/secrets", true)));
    }
}

package dev.hotspare.kubernetes;

import java.nio.file.Path;

/** The RBAC rules this module ships, which every test's requests must be covered by. */
final class RbacFile {

    /** {@code docs/kubernetes-rbac.yaml}, from the module's directory (where the tests run). */
    static final Path SHIPPED = Path.of("..", "docs", "kubernetes-rbac.yaml");

    private RbacFile() {
    }
}

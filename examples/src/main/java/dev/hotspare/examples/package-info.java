/**
 * hotspare's example programs, not part of the library: the README's {@link dev.hotspare.examples.QuickStart}, and
 * {@link dev.hotspare.examples.ExamplesMain}, the main class of {@code examples/target/hotspare-examples.jar}, which
 * runs the examples by name ({@code pool-service}, {@code rollout-demo}, {@code quick-start}).
 */
package dev.hotspare.examples;

/**
 * The {@code hotspare} command line ({@code cli/target/hotspare.jar}, main {@link dev.hotspare.cli.HotspareCli}):
 * {@code simulate}, {@code plan}, {@code validate}, {@code autoscale}, {@code diff} and {@code rollout plan} /
 * {@code replay}. Each subcommand only parses its options and files, calls the library (planners, the simulator,
 * {@code Recommendation}, the autoscaler, the rollout machine) and prints the result; bad input is exit status 2
 * with one line per problem. The rules themselves live in {@code hotspare-core}.
 */
package dev.hotspare.cli;

/**
 * How the Kubernetes adapters work, not part of the API (users construct the drivers and stores in
 * {@code dev.hotspare.kubernetes} and never name these classes): the labels and annotations every object of the
 * module carries, and the one place that decides which client errors mean "the API server cannot answer"
 * ({@link dev.hotspare.kubernetes.internal.Kube}). May change in any release.
 */
package dev.hotspare.kubernetes.internal;

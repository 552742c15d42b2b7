/**
 * What every port shares: {@link dev.hotspare.spi.StoreUnavailableException}, the one failure a backend reports
 * when it cannot answer.
 */
package dev.hotspare.spi;

"""What every engine shares: validation, batching, chunks, the pipeline view
and the one place that imports scikit-learn's private names."""

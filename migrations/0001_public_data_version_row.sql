-- The single row of the public-data version counter (edge-cache keys include its value).
INSERT OR IGNORE INTO public_data_version (id, version) VALUES (1, 1);

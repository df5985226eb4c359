// SesameHTTP

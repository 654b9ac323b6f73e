/** The admin API's own description (`api.describe`, OpenAPI 3.1): built once by the engine at start. */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context';

export function useApiDescription() {
  const api = useApi();
  return useQuery({
    queryKey: ['api', 'description'],
    queryFn: () => api.call('api.describe', {}),
    staleTime: Infinity,
  });
}
